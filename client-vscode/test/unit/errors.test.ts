import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../src/lib/errors';

describe('errorMessage', () => {
  it('prefixes ripplegraph unless the server named itself', () => {
    expect([
      errorMessage(new Error('ripple: store is down')),
      errorMessage(new Error('Request cancelled')),
      errorMessage('ripplegraph: x'),
      errorMessage({ code: -32803 }),
    ]).toEqual(['ripple: store is down', 'ripplegraph: Request cancelled', 'ripplegraph: x', 'ripplegraph: {"code":-32803}']);
  });
});
