// The worker protocol's one table (web/src/worker/handlers.ts): every kind
// belongs to exactly one feature, and the table the worker dispatches on holds
// each feature's handlers (a kind claimed twice would silently replace one).
import { describe, expect, it } from 'vitest';
import { handlerGroups, handlers } from '../../web/src/worker/handlers';

describe('the handler table', () => {
  it('no two features claim the same kind, and the worker dispatches on all of them', () => {
    const kinds = Object.values(handlerGroups).flatMap((group) => Object.keys(group));
    expect(new Set(kinds).size).toBe(kinds.length);
    expect(Object.keys(handlers).sort()).toEqual([...kinds].sort());
    for (const [kind, handler] of Object.entries(handlers)) expect(typeof handler, kind).toBe('function');
  });
});
