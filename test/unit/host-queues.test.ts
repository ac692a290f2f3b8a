import { describe, expect, it } from 'vitest';
import { HostQueues, hostKey } from '../../src/webhooks/host-queues.js';

const job = (id: string, webhook: string, url: string) => ({ id, webhook_id: webhook, url });

describe('HostQueues', () => {
  it('starts up to perHost attempts per host, then lets one round wait, then refuses', () => {
    const queues = new HostQueues<ReturnType<typeof job>>(2);
    const verdicts = ['1', '2', '3', '4', '5'].map(
      (id) => queues.offer(job(id, 'wh_a', 'https://a.example/x')).verdict,
    );
    expect(verdicts).toEqual(['start', 'start', 'wait', 'wait', 'full']);
    // Another host is not affected by the first one's backlog.
    expect(queues.offer(job('6', 'wh_b', 'https://b.example/x')).verdict).toBe('start');
    expect(queues.inFlight).toBe(3);
    expect(queues.held).toBe(5);
  });

  it('hands a finished slot to the next waiting delivery of the same host', () => {
    const queues = new HostQueues<ReturnType<typeof job>>(1);
    const host = queues.offer(job('1', 'wh_a', 'https://a.example/')).host;
    queues.offer(job('2', 'wh_a', 'https://a.example/other'));
    expect(queues.finish(host)?.id).toBe('2');
    expect(queues.inFlight).toBe(1);
    expect(queues.finish(host)).toBeUndefined();
    expect(queues.held).toBe(0);
  });

  it("leaves a host's webhooks out of claims while more than half a round waits", () => {
    const queues = new HostQueues<ReturnType<typeof job>>(4);
    for (let i = 0; i < 4; i++) queues.offer(job(`s${i}`, 'wh_a', 'https://a.example/'));
    queues.offer(job('w1', 'wh_a2', 'https://a.example:443/other'));
    queues.offer(job('w2', 'wh_a', 'https://a.example/'));
    queues.offer(job('b1', 'wh_b', 'https://b.example/'));
    expect(queues.excludedWebhooks()).toEqual([]);
    queues.offer(job('w3', 'wh_a', 'https://a.example/'));
    expect(queues.excludedWebhooks().sort()).toEqual(['wh_a', 'wh_a2']);
    expect(queues.wantsMore(hostKey('https://a.example/'))).toBe(false);
    queues.finish(hostKey('https://a.example/'));
    expect(queues.excludedWebhooks()).toEqual([]);
    expect(queues.drain().map((j) => j.id)).toEqual(['w2', 'w3']);
  });

  it('lets up to maxWaiting wait when given, and excludes the host past half of that', () => {
    const queues = new HostQueues<ReturnType<typeof job>>(2, 6);
    const verdicts = Array.from(
      { length: 9 },
      (_, i) => queues.offer(job(`${i}`, 'wh_a', 'https://a.example/')).verdict,
    );
    expect(verdicts).toEqual(['start', 'start', 'wait', 'wait', 'wait', 'wait', 'wait', 'wait', 'full']);
    expect(queues.excludedWebhooks()).toEqual(['wh_a']);
    const host = hostKey('https://a.example/');
    for (let i = 0; i < 3; i++) queues.finish(host);
    expect(queues.wantsMore(host)).toBe(true);
    expect(queues.excludedWebhooks()).toEqual([]);
  });

  it('tells receivers apart by host and port', () => {
    expect(hostKey('https://a.example/x')).toBe('a.example:443');
    expect(hostKey('http://a.example/x')).toBe('a.example:80');
    expect(hostKey('http://a.example:8080/x')).toBe('a.example:8080');
    expect(hostKey('https://[2001:db8::1]/')).toBe('[2001:db8::1]:443');
  });
});
