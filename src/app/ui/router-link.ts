import { Link } from 'react-router-dom';

/**
 * React Router's Link for Konsta's `linkComponent` (typed there as a tag name but rendered as any
 * component): list rows then navigate on the client, with `linkProps={{ to }}`.
 */
export const RouterLink = Link as unknown as string;
