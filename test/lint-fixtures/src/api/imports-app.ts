// wrong: the API client sits below the app
import { screen } from '../app/screen';

export const fromApp = screen;
