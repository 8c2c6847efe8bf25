// Pacing alone: a steady pace under the plan's rate, on a fake clock.
import { describe, expect, it } from 'vitest';
import { Pacer, sleepOrCancel } from '../../../../electron/core/api/pacing';
import { ApiError } from '../../../../electron/core/api/errors';
import { FakeClock } from '../../../support/fake-clock';

describe('Pacer', () => {
  it('spaces requests evenly: the first goes at once, the next a full interval later', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock, 60);
    for (let i = 0; i < 4; i++) await pacer.wait();
    expect(clock.sleeps).toEqual([1000, 1000, 1000]);
  });

  it('time already spent counts towards the interval', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock, 30);
    expect(pacer.reserve()).toBe(0);
    clock.t += 500;
    expect(pacer.reserve()).toBe(1500);
    clock.t += 10_000;
    expect(pacer.reserve()).toBe(0);
  });

  it('reserving slots without waiting queues them one after another', () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock, 120);
    expect([pacer.reserve(), pacer.reserve(), pacer.reserve()]).toEqual([0, 500, 1000]);
  });

  it('0 requests per minute turns pacing off', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock, 0);
    for (let i = 0; i < 5; i++) await pacer.wait();
    expect(clock.sleeps).toEqual([]);
  });

  it("a cancelled wait is the client's cancelled error", async () => {
    const clock = new FakeClock();
    const pacer = new Pacer(clock, 60);
    await pacer.wait();
    const controller = new AbortController();
    controller.abort();
    await expect(pacer.wait(controller.signal)).rejects.toMatchObject({ kind: 'cancelled', message: 'Cancelled.' });
    await expect(sleepOrCancel(clock, 10, controller.signal)).rejects.toBeInstanceOf(ApiError);
    await sleepOrCancel(clock, 10);
    expect(clock.sleeps).toEqual([10]);
  });
});
