/**
 * The key-encryption keys that wrap each value's data key (envelope encryption, decision 055). The
 * local adapter holds them in memory from configuration; a managed key service (a cloud KMS) can
 * take its place behind the same two calls, since only wrapped data keys ever leave this interface.
 */
export interface KeyAdapter {
  /** the id of the key new values are wrapped with; stored beside each value so keys can rotate */
  readonly currentKeyId: string;
  /** wraps a fresh data key with the current key */
  wrap(dataKey: Buffer): Promise<{ keyId: string; wrapped: Buffer }>;
  /** unwraps a data key wrapped by the key `keyId` (the current one or an older one still held); throws when it cannot */
  unwrap(keyId: string, wrapped: Buffer): Promise<Buffer>;
}

/** The local adapter's settings: the current key and the older ones still needed to read old values. */
export interface LocalKeySettings {
  current: { id: string; key: Buffer };
  previous: { id: string; key: Buffer }[];
}
