import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { DEFAULT_CALL_URLS } from 'contracts';

let nextAddress = 1;
/** A fresh client address (10.x.y.z) per call: each simulated browser on its own network. */
export function uniqueClientAddress(): string {
  const n = nextAddress++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/**
 * A simulated browser for `app.inject` tests: keeps the cookies the server sets (name=value
 * only) and sends them back, and fetches a CSRF token like the widget does. Requests come
 * from `address` (default: an address of its own, so per-address limits do not mix browsers).
 */
export class BrowserSession {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly app: FastifyInstance,
    readonly address: string = uniqueClientAddress(),
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(options: {
    method: 'GET' | 'POST';
    url: string;
    headers?: Record<string, string>;
    payload?: string;
  }): Promise<LightMyRequestResponse> {
    const response = await this.app.inject({
      method: options.method,
      url: options.url,
      remoteAddress: this.address,
      headers: { ...(this.cookies.size > 0 ? { cookie: this.cookieHeader } : {}), ...options.headers },
      ...(options.payload !== undefined ? { payload: options.payload } : {}),
    });
    for (const cookie of response.cookies) this.cookies.set(cookie.name, cookie.value);
    return response;
  }

  async csrfToken(): Promise<string> {
    const response = await this.request({ method: 'GET', url: DEFAULT_CALL_URLS.csrfToken });
    return response.body;
  }

  /** POSTs `payload` (a raw string, so malformed JSON can be sent) with a fresh CSRF token. */
  async submit(formHandle: string, payload: string, token?: string): Promise<LightMyRequestResponse> {
    return this.request({
      method: 'POST',
      url: DEFAULT_CALL_URLS.surveySubmit.replace('{formHandle}', encodeURIComponent(formHandle)),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'x-csrf-token': token ?? (await this.csrfToken()),
      },
      payload,
    });
  }

  async vote(formHandle: string, answerPosition: number): Promise<LightMyRequestResponse> {
    return this.submit(formHandle, JSON.stringify({ answerPosition }));
  }
}
