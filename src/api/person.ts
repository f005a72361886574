import type { PersonInfoBody, PersonInfoPage, PersonInfoView, StyleOption } from '../contracts/person-info';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts/person-info.ts): they cannot drift.
export type { PersonInfoBody, PersonInfoPage, PersonInfoView, StyleOption };

/** Everything the server holds about the member, as a JSON file: a plain link (the server reads the token cookie too). */
export const MY_DATA_PATH = '/api/customers/me/export';

/** Personal information (decision 032): what is stored, masked, and saving it. */
export function personCalls(http: ApiClient) {
  return {
    info: () => http.get<PersonInfoPage>('/customers/person-info'),
    save: (body: PersonInfoBody) => http.put<PersonInfoView>('/customers/person-info', { body }),
  };
}
