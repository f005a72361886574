// wrong: the server never imports the app
import { screen } from '../app/screen';

export const rendered = screen;
