#!/usr/bin/env node
// The CLI is bundled into dist/cli.js by `npm run build`; this shim only gives it a shebang.
import '../dist/cli.js';
