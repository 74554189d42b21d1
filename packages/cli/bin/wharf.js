#!/usr/bin/env node
// The CLI runs its TypeScript as it is, through tsx, like the server: no build step to forget.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
