// The "Look inside" tools' keys in the address (app/interpSettings.ts): read and
// written back unchanged (round trip), bad values reported and replaced by their
// defaults while the other keys are kept, intervention text forms checked for
// their shape; and the "Reproduce in PyTorch" line (viewmodels/reproduce.ts).
import { describe, expect, it } from 'vitest';
import { readInspectorUrl, writeInspectorUrl } from '../../web/src/app/inspectorSettings';
import { DEFAULT_INTERP, interventionProblem, readInterpUrl, writeInterpUrl, type InterpSettings } from '../../web/src/app/interpSettings';
import { reproduceArgs, reproduceCommand, shellQuote } from '../../web/src/viewmodels/reproduce';

describe('the tools in the address', () => {
  it('without its keys the tools are closed at their defaults, and writing them adds nothing', () => {
    const r = readInterpUrl('?view=inspector&tensor=blocks.1.attn', 20);
    expect(r.problems).toEqual([]);
    expect(r.settings).toEqual(DEFAULT_INTERP);
    expect(writeInterpUrl(r.settings, '?view=inspector&tensor=blocks.1.attn')).toBe('?view=inspector&tensor=blocks.1.attn');
  });

  it('round-trips every key exactly', () => {
    const s: InterpSettings = {
      tool: 'gradcheck',
      pos: 7,
      coord: 101,
      head: { block: 3, head: 1 },
      param: 'blocks.2.attn.wq.weight',
      delta: { float32: 0.01, float64: 1e-8 },
      interventions: ['zero:blocks.2.ffn', 'scale:blocks.0.attn:0.5', 'ablateHead:1:2', 'eps:blocks.3.norm_ffn:0.01', 'identityNorm:norm_final', 'unitGamma:blocks.0.norm_attn'],
    };
    const search = writeInterpUrl(s, '?view=inspector&prompt=abc');
    expect(search).toContain('iv=zero:blocks.2.ffn,scale:blocks.0.attn:0.5,ablateHead:1:2,');
    expect(search).toContain('head=3.1');
    const back = readInterpUrl(search, 20);
    expect(back.problems).toEqual([]);
    expect(back.settings).toEqual(s);
    expect(writeInterpUrl(back.settings, search)).toBe(search);
    // the inspector's own keys are untouched by the tools' and the other way round
    const inspector = readInspectorUrl(search);
    expect(inspector.problems).toEqual([]);
    expect(readInterpUrl(writeInspectorUrl(inspector.settings, search), 20).settings).toEqual(s);
  });

  it('reports each bad value with its key and default, and still uses the good ones', () => {
    const r = readInterpUrl('?tool=magnify&pos=12&coord=-1&head=two&param=w%20q&d32=0&d64=abc&iv=zero:blocks.1.ffn,melt:blocks.0', 10);
    expect(r.settings.tool).toBeNull();
    expect(r.settings.pos).toBe(0);
    expect(r.settings.coord).toBe(0);
    expect(r.settings.head).toEqual({ block: 0, head: 0 });
    expect(r.settings.param).toBeNull();
    expect(r.settings.delta).toEqual({ float32: 1e-3, float64: 1e-6 });
    expect(r.settings.interventions).toEqual(['zero:blocks.1.ffn']);
    expect(r.problems).toEqual([
      'The address has tool="magnify": not one of heads, lens, ledger, intervene, gradcheck; using the tools closed.',
      'The address has pos="12": not a position of the prompt (a whole number from 0 to 9); using position 0.',
      'The address has coord="-1": not a coordinate (a whole number from 0); using coordinate 0.',
      'The address has head="two": not a block and a head such as 1.2 (head 2 of block 1); using head 0 of block 0.',
      'The address has param="w q": not a parameter name such as blocks.0.attn.wq.weight; using the open tensor.',
      'The address has d32="0": δ must be above 0 and at most 1; using 0.001.',
      "The address has d64=\"abc\": d64: 'abc' is not a number; using 0.000001.".replace('0.000001', String(1e-6)),
      'The address has the intervention "melt:blocks.0" in iv: unknown kind "melt"; the kinds are zero, scale, ablateHead, eps, identityNorm, unitGamma; it was left out.',
    ]);
  });

  it('reports a key given twice and uses the first', () => {
    const r = readInterpUrl('?pos=2&pos=3', 10);
    expect(r.settings.pos).toBe(2);
    expect(r.problems[0]).toMatch(/^The address has pos 2 times/);
  });

  it('checks an intervention’s shape: kind, fields and numbers', () => {
    for (const ok of ['zero:blocks.2.ffn', 'scale:blocks.0.attn:-0.5', 'scale:blocks.0.attn:1e-3', 'ablateHead:0:3', 'eps:norm_final:0', 'identityNorm:blocks.1.norm_attn', 'unitGamma:norm.final'])
      expect(interventionProblem(ok), ok).toBeNull();
    expect(interventionProblem('scale:blocks.0.attn')).toBe('scale takes a branch and a factor (scale:blocks.0.attn:0.5)');
    expect(interventionProblem('scale:blocks.0.attn:abc')).toBe('scale takes a branch and a factor (scale:blocks.0.attn:0.5)');
    expect(interventionProblem('ablateHead:1')).toBe('ablateHead takes a block and a head (ablateHead:1:2)');
    expect(interventionProblem('ablateHead:1:x')).toBe('ablateHead takes a block and a head (ablateHead:1:2)');
    expect(interventionProblem('zero:')).toBe('zero takes one name (zero:blocks.2.ffn)');
    expect(interventionProblem('eps:blocks.0.norm_attn:nan')).toBe('eps takes a norm and a value (eps:blocks.3.norm_ffn:0.01)');
  });
});

describe('the Reproduce in PyTorch line', () => {
  const base = { weights: 'public/weights/glass-kjv.safetensors', text: "In the beginning God's", dtype: 'float32' as const, eps: 1e-6, interventions: [] };

  it('quotes what the shell would split or expand', () => {
    expect(shellQuote('blocks.2.attn')).toBe('blocks.2.attn');
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("God's $HOME")).toBe(`'God'\\''s $HOME'`);
    expect(shellQuote('')).toBe("''");
  });

  it('names the script, the weights, the text, what to print, the dtype and eps', () => {
    expect(reproduceCommand({ ...base, what: { kind: 'snapshot', name: 'blocks.1.resid.attn', coords: [5, 17] } })).toBe(
      `python3 tests/reference/reproduce.py public/weights/glass-kjv.safetensors 'In the beginning God'\\''s' snapshot blocks.1.resid.attn 5,17 --dtype f32 --eps 0.000001`.replace(
        '0.000001',
        String(1e-6),
      ),
    );
    expect(reproduceArgs({ ...base, dtype: 'float64', what: { kind: 'grad', name: 'tok_emb.weight', coords: [65, 3] } }).slice(2)).toEqual([
      'grad',
      'tok_emb.weight',
      '65,3',
      '--dtype',
      'f64',
      '--eps',
      '0.000001'.replace('0.000001', String(1e-6)),
    ]);
    expect(reproduceArgs({ ...base, what: { kind: 'lens', depth: 'blocks.2.resid.attn', pos: 30 } }).slice(2, 5)).toEqual(['lens', 'blocks.2.resid.attn', '30']);
    expect(reproduceArgs({ ...base, interventions: ['zero:blocks.2.ffn', 'ablateHead:1:2'], what: { kind: 'loss' } }).slice(2)).toEqual([
      'loss',
      '--dtype',
      'f32',
      '--eps',
      String(1e-6),
      '--intervene',
      'zero:blocks.2.ffn,ablateHead:1:2',
    ]);
  });
});
