/** Messages between the page and the hashing worker. */
export interface HashRequest {
  jobId: number;
  file: Blob;
}

export type HashResponse =
  | { jobId: number; type: 'progress'; hashedBytes: number }
  | { jobId: number; type: 'done'; sha256: string }
  | { jobId: number; type: 'error'; message: string };
