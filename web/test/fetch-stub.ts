/** Replaces the global fetch for one test: the base query looks fetch up on every call, so a store built before sees it. */

export interface FetchCall {
  method: string;
  url: string;
  credentials: RequestCredentials | undefined;
  headers: Record<string, string>;
  body: string | undefined;
}

export function stubFetch(answer: (call: FetchCall) => Response | Promise<Response>): {
  calls: FetchCall[];
  restore: () => void;
} {
  const original = globalThis.fetch;
  const calls: FetchCall[] = [];
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const call = {
      method: init?.method ?? 'GET',
      url: String(input),
      credentials: init?.credentials,
      headers: { ...(init?.headers as Record<string, string> | undefined) },
      body: typeof init?.body === 'string' ? init.body : undefined,
    };
    calls.push(call);
    return answer(call);
  }) as typeof fetch;
  return { calls, restore: () => (globalThis.fetch = original) };
}
