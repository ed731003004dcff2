import type { QueueDefinition } from './queue.js';

/** The queue of availability releases: one job per (transfer, moment), started at the window's opening. */
export const AVAILABILITY_RELEASE = 'transfers.availability-release';

/** The sweep that releases PENDING transfers a lost job left behind (every few minutes, once across instances). */
export const AVAILABILITY_SWEEP = 'transfers.availability-sweep';

export interface AvailabilityJob {
  transferId: string;
}

/** A release that fails (the database away) is retried; it is idempotent, the holds are asked again each time. */
export const availabilityQueues: QueueDefinition[] = [
  {
    name: AVAILABILITY_RELEASE,
    policy: 'standard',
    retryLimit: 10,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 300,
  },
  { name: AVAILABILITY_SWEEP, policy: 'singleton', retryLimit: 0, expireInSeconds: 600 },
];

/** Every five minutes: the longest a transfer stays PENDING past its moment when its job was lost. */
export const AVAILABILITY_SWEEP_CRON = '*/5 * * * *';
