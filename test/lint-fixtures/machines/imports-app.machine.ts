// wrong: machines never import the app
import { screen } from '../src/app/screen';

export const onScreen = screen;
