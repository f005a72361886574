/** The last SMS code the local sender "sent" to a phone (demo mode only: GET /api/dev/sms/:phone). */
export async function devSmsCode(baseUrl: string, phone: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/dev/sms/${encodeURIComponent(phone)}`);
  const body = (await res.json()) as { code?: number; data?: { code?: string } | null };
  const code = body.data?.code;
  if (!res.ok || typeof code !== 'string') throw new Error(`no dev SMS code for ${phone}: HTTP ${res.status} ${JSON.stringify(body)}`);
  return code;
}

/** Waits until a code has been sent to the phone (the app requests it asynchronously after a tap). */
export async function waitForSmsCode(baseUrl: string, phone: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await devSmsCode(baseUrl, phone);
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
