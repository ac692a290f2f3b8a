import { describe, expect, it } from 'vitest';
import { REQUEST_BUCKETS, RequestHistogram } from '../../src/metrics/request-histogram.js';

describe('the request-duration histogram', () => {
  it('exposes cumulative buckets (a value on a bound counts in it), +Inf, sum and count per series', () => {
    const histogram = new RequestHistogram('req_seconds', 'Request time.');
    for (const seconds of [0.001, 0.005, 0.0051, 0.3, 20]) histogram.observe('GET', '/a/:id', '2xx', seconds);
    histogram.observe('POST', '/a', '5xx', 0.05);
    const lines = histogram.exposition().split('\n');
    expect(lines.slice(0, 2)).toEqual(['# HELP req_seconds Request time.', '# TYPE req_seconds histogram']);
    const get = 'method="GET",route="/a/:id",status_class="2xx"';
    const value = (series: string) =>
      Number(lines.find((line) => line.startsWith(`${series} `))?.split(' ')[1]);
    expect(value(`req_seconds_bucket{${get},le="0.005"}`)).toBe(2);
    expect(value(`req_seconds_bucket{${get},le="0.01"}`)).toBe(3);
    expect(value(`req_seconds_bucket{${get},le="0.25"}`)).toBe(3);
    expect(value(`req_seconds_bucket{${get},le="0.5"}`)).toBe(4);
    expect(value(`req_seconds_bucket{${get},le="10"}`)).toBe(4);
    expect(value(`req_seconds_bucket{${get},le="+Inf"}`)).toBe(5);
    expect(value(`req_seconds_count{${get}}`)).toBe(5);
    expect(value(`req_seconds_sum{${get}}`)).toBeCloseTo(20.3111, 6);
    const post = 'method="POST",route="/a",status_class="5xx"';
    expect(value(`req_seconds_bucket{${post},le="0.025"}`)).toBe(0);
    expect(value(`req_seconds_bucket{${post},le="0.05"}`)).toBe(1);
    expect(lines.filter((line) => line.includes('status_class="5xx"'))).toHaveLength(
      REQUEST_BUCKETS.length + 3,
    );
    expect(lines.at(-1)).toBe('');
  });

  it('escapes label values and has no series before a request', () => {
    const histogram = new RequestHistogram('req_seconds', 'Request time.');
    expect(histogram.exposition()).toBe('# HELP req_seconds Request time.\n# TYPE req_seconds histogram\n');
    histogram.observe('GET', '/odd"\\route\n', '4xx', 0.1);
    expect(histogram.exposition()).toContain('route="/odd\\"\\\\route\\n"');
  });
});
