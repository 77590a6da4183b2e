/** The part of autocannon's API the bench uses (the package ships no types). */
declare module "autocannon" {
  interface Options {
    url: string;
    connections: number;
    /** Seconds. */
    duration: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    total: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    /** Seconds the run took. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    "2xx": number;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
