import { Agent, request as httpRequest, type IncomingHttpHeaders } from "node:http";

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  agent?: Agent | false;
}

/** One HTTP request with node:http (paths go out exactly as given, unnormalised). */
export function send(baseUrl: string, path: string, options: SendOptions = {}): Promise<Reply> {
  const url = new URL(baseUrl);
  const headers: Record<string, string | string[]> = { ...options.headers };
  if (
    options.body !== undefined &&
    !Object.keys(headers).some((h) => /^content-length$/i.test(h))
  ) {
    headers["content-length"] = String(Buffer.byteLength(options.body));
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? "GET",
        path,
        headers,
        agent: options.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** JSON request helper: sends `body` as JSON and asks for JSON. */
export function sendJson(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  agent?: Agent,
): Promise<Reply> {
  return send(baseUrl, path, {
    method,
    agent,
    headers: {
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/** A keep-alive agent holding at most `connections` sockets. */
export function keepAliveAgent(connections: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
}

/** The status code of the first response in raw HTTP output (0 when there was none). */
export function rawStatus(output: string): number {
  return Number(/^HTTP\/1\.[01] (\d{3})/.exec(output)?.[1] ?? 0);
}

/** Runs `tasks` with at most `limit` in flight. */
export async function pool<T>(
  count: number,
  limit: number,
  task: (i: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
  return results;
}
