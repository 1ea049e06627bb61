// Integers print as integers: shapes [2, 3], counts 6, byte values [99, 114, …],
// never [2., 3.] or 147456. — in code-cell print() output, in inline live values
// and in revealed check answers. A float tensor keeps numpy's look ([[2., 4.]]).
import { describe, expect, it } from 'vitest';
import type { Glass } from '../../web/src/core';
import { formatNumber, formatValue } from '../../web/src/lessons/format';
import { formatArray, formatPlain, formatScalar, markFloat } from '../../web/src/common/numpyFormat';
import { runCode } from '../../web/src/worker/lessonOps/code';
import { withShippedModel } from './load';
import type { WorkerState } from '../../web/src/worker/state';

describe('plain numbers and arrays', () => {
  it('whole numbers print as integers, one line for a list, aligned rows for a matrix', () => {
    expect(formatPlain(6)).toBe('6');
    expect(formatPlain(147456)).toBe('147456');
    expect(formatPlain(-0)).toBe('0');
    expect(formatPlain([2, 3])).toBe('[2, 3]');
    expect(formatPlain([99, 114, 195, 169])).toBe('[99, 114, 195, 169]');
    expect(formatPlain([[1, 20], [3, 4]])).toBe('[[ 1, 20],\n [ 3,  4]]');
    expect(formatPlain([])).toBe('[]');
  });
  it('anything not whole keeps numpy float style', () => {
    expect(formatPlain(1.5)).toBe('1.5');
    expect(formatPlain([1, 2.5])).toBe('[1. , 2.5]');
    expect(formatPlain(2.5e-8)).toBe('2.5e-08');
    expect(formatPlain([NaN, 1])).toBe('[nan,  1.]');
  });
  it('a float tensor is still numpy: formatArray / formatScalar, and marked float arrays', () => {
    expect(formatArray([[2, 4]])).toBe('[[2., 4.]]');
    expect(formatScalar(1152)).toBe('1152.');
    const marked = markFloat([1, 2]);
    expect(formatArray(marked)).toBe('[1., 2.]');
  });
});

describe('inline values and revealed answers', () => {
  it('whole numbers in full, arrays with a space after each comma', () => {
    expect(formatNumber(147456)).toBe('147456');
    expect(formatValue(147456, 'auto')).toBe('147456');
    expect(formatValue(12345678, 'auto')).toBe('12345678'); // fmt would write 1.234568e7
    expect(formatValue(6, 'auto')).toBe('6');
    expect(formatValue(-0, 'auto')).toBe('0');
    expect(formatValue([2, 3], 'auto')).toBe('[2, 3]');
    expect(formatValue([[2, 3], [4, 5]], 'auto')).toBe('[[2, 3], [4, 5]]');
    expect(formatValue([0.5, 1], 'auto')).toBe('[0.5, 1]');
    expect(formatValue(0.999999875, 'auto')).toBe('0.9999999');
    expect(formatValue(1152, 'int')).toBe('1,152');
    expect(formatValue([2, 3], 'np')).toBe('[2., 3.]');
    expect(formatValue('NaN', 'auto')).toBe('NaN');
  });
});

describe('code cells print what they print, through the real core', () => {
  let w: WorkerState;
  let glass: Glass;
  withShippedModel((s) => ((w = s), (glass = s.glass)));
  const out = (code: string) => {
    const r = runCode(w, code);
    expect(r.error).toBeNull();
    return r.output;
  };

  it('shapes, counts, strides and byte values are integers', () => {
    expect(out('const x = glass.tensor([[1, 2, 3], [4, 5, 6]]); print(x.shape, x.dtype, x.numel);')).toBe('[2, 3] float32 6');
    expect(out('print(glass.tensor([[1, 2, 3], [4, 5, 6]]).transpose().strides)')).toBe('[1, 3]');
    expect(out("print('bytes:', model.run('créé', { backward: false }).ids)")).toBe('bytes: [99, 114, 195, 169, 195, 169]');
    expect(out('print(model.info().norms)')).toBe('9');
    expect(out("print('weights:', glass.zeros([384, 128]).numel * 3)")).toBe('weights: 147456');
    expect(out("print(glass.oneHot([1, 2, 2], 4).sum().item())")).toBe('3');
  });

  it('float tensors keep numpy float style, even when their values are whole', () => {
    expect(out("print(glass.tensor([[1, 2]], { dtype: 'float64' }).mul(2))")).toBe('[[2., 4.]]');
    expect(out("print(glass.tensor([1, 2, 3]).data())")).toBe('[1., 2., 3.]');
    expect(out("print(round(glass.tensor([[0.25, 1]]), 0))")).toBe('[[0., 1.]]');
    expect(out("print(round(glass.tensor([[3, 4]], { dtype: 'float64' }).div(5), 6))")).toBe('[[0.6, 0.8]]');
    expect(out('print(1.5, 0.25)')).toBe('1.5 0.25');
  });
});
