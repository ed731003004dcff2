export { buildZipLayout, type ZipEntryInput, type ZipLayout, type ZipSegment } from './zip-layout.js';
export { streamZipRange, type ZipBlobOpener } from './zip-stream.js';
