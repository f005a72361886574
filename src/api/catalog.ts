import type { ApiClient } from './client';

/** A club as GET /school/clubs answers it. */
export interface Club {
  id: number;
  name: string;
  city: string;
  address: string;
  phone: string;
  lat: number;
  lng: number;
  cover: string;
}

/** Public catalogue calls (spec §7 paths). */
export function catalogCalls(http: ApiClient) {
  return {
    clubs: () => http.get<Club[]>('/school/clubs'),
  };
}
