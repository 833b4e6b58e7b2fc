import { describe, expect, it } from "vitest";
import { ConnectionLock } from "./connection-lock.js";

describe("ConnectionLock", () => {
  it("is taken at once when free, without a promise", () => {
    const lock = new ConnectionLock();
    expect(lock.acquire()).toBeUndefined();
    expect(lock.held).toBe(true);
    lock.release();
    expect(lock.held).toBe(false);
  });

  it("is tried without waiting", () => {
    const lock = new ConnectionLock();
    expect(lock.tryAcquire()).toBe(true);
    expect(lock.tryAcquire()).toBe(false);
    lock.release();
    expect(lock.tryAcquire()).toBe(true);
  });

  it("hands the lock to waiters in the order they asked", async () => {
    const lock = new ConnectionLock();
    lock.acquire();
    const order: number[] = [];
    const waits = [1, 2, 3].map((n) =>
      lock.acquire()?.then(() => {
        order.push(n);
        lock.release();
      }),
    );
    expect(order).toEqual([]);
    lock.release();
    await Promise.all(waits);
    expect(order).toEqual([1, 2, 3]);
    expect(lock.held).toBe(false);
  });
});
