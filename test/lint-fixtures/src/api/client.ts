export interface LoginResult {
  token: string;
}
export const login = async (): Promise<LoginResult> => ({ token: 't' });
