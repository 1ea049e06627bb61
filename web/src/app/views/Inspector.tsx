// The model inspector: load the shipped weights, run any prompt forward and
// backward in the worker, and open every snapshot and its gradient. Every number
// comes from the core (worker/inspector.ts); this file lays out the widgets.
//
// Settings (prompt, eps, dtype, tensor, value/gradient, compare pair) are
// `inspectorSettings` in state.ts, mirrored in the URL (inspectorSettings.ts);
// the weights and the latest result are in inspectorState.ts.
import { useEffect } from 'preact/hooks';
import { fmt } from '../format';
import { ScrollBox } from '../ScrollBox';
import { contextBytes, inspectBusy, inspectOutcome, loadOwnWeights, loadedModel, ownWeights, promptRun, retryWeights, startInspector, weights } from '../inspectorState';
import { BLOCKS, type InspectorSettings } from '../inspectorSettings';
import { SHIPPED_SHAPE } from '../../protocol/modelNames';
import { inspectorSettings } from '../state';
import { lookInsideContext } from './inspectorTools';
import { BlockMap } from '../../widgets/inspector/BlockMap';
import { GradientNorms } from '../../widgets/inspector/GradientNorms';
import { LookInside } from '../../widgets/inspector/LookInside';
import { ModelControls } from '../../widgets/inspector/ModelControls';
import { Predictions } from '../../widgets/inspector/Predictions';
import { PromptEditor } from '../../widgets/inspector/PromptEditor';
import { ResidualDepthPlot } from '../../widgets/inspector/ResidualDepthPlot';
import { TensorPanel } from '../../widgets/inspector/TensorPanel';
import { WeightsStatus } from '../../widgets/inspector/WeightsStatus';
import './Inspector.css';

const update = (patch: Partial<InspectorSettings>) => (inspectorSettings.value = { ...inspectorSettings.peek(), ...patch });
const open = (name: string) => update({ tensor: name, compare: null });
const openGrad = (name: string) => update({ tensor: name, compare: null, grad: true });

export function Inspector() {
  useEffect(() => startInspector(), []);
  const s = inspectorSettings.value;
  const outcome = inspectOutcome.value;
  const result = outcome?.result ?? null;
  const w = weights.value;
  const ready = w.status === 'ready';
  // the loaded model's config names everything below: its blocks, norms, width and context
  const model = loadedModel.value ?? SHIPPED_SHAPE;
  return (
    <section class="inspector" aria-labelledby="inspector-title">
      <header class="inspector-head">
        <h1 id="inspector-title">Inspector</h1>
        <p class="inspector-lede">
          The {loadedModel.value?.blocks ?? BLOCKS}-block byte-level model, run live by the wasm core: forward and backward of the next-byte loss on your prompt.
          Open any tensor in the residual stream, the {model.norm === 'none' ? 'branches' : 'norms and both branches'} — and its gradient.
        </p>
      </header>
      <WeightsStatus weights={w} onRetry={retryWeights} own={ownWeights.value} onOpenFile={(name, bytes) => void loadOwnWeights(bytes, `your file “${name}”`)} />
      <div class="inspector-inputs card">
        <PromptEditor prompt={s.prompt} run={promptRun.value} onPrompt={(prompt) => update({ prompt })} context={contextBytes.value} />
        <ModelControls
          settings={s}
          norms={w.status === 'ready' ? w.info.norms : null}
          onChange={update}
          normKind={model.normKind}
          modelEps={w.status === 'ready' ? w.info.eps : undefined}
        />
      </div>
      {outcome?.error && (
        <p class="notice notice-bad" role="alert" data-testid="inspect-error">
          The core could not run this: {outcome.error.message}
        </p>
      )}
      {ready && result !== null && (
        <div class={`inspector-results${inspectBusy.value ? ' is-busy' : ''}`} data-testid="inspector-results">
          <div class="inspector-top card">
            <div class="inspector-summary">
              <h2>Next byte after the prompt</h2>
              <p class="inspector-loss" data-testid="inspector-loss">
                {result.loss === null ? (
                  'no loss (one byte)'
                ) : (
                  <>
                    mean next-byte loss <span class="num">{fmt(result.loss, 6)}</span> nats over {result.ids.length - 1} predictions ·{' '}
                    {result.run.dtype}
                  </>
                )}
                <span class="inspector-timing num"> · core {fmt(result.runMs || outcome!.computeMs, 3)} ms</span>
              </p>
              <Predictions baseline={result.baseline} current={{ eps: result.run.eps, loss: result.loss, top: result.top }} />
            </div>
          </div>
          <div class="card">
            <h2>The blocks</h2>
            <ScrollBox label="The blocks" class="inspector-blocks">
              <BlockMap model={model} selected={s.tensor} compare={s.compare} onSelect={open} />
            </ScrollBox>
          </div>
          <div class="card" data-testid="tensor-card">
            <h2>{s.compare === null ? 'The open tensor' : 'Two tensors and their difference'}</h2>
            <TensorPanel settings={s} result={result} onChange={update} model={model} />
          </div>
          <div class="card inspector-depth">
            <h2>The residual stream by depth{model.norm === 'pre' ? `, and the final ${model.normKind === 'layer' ? 'LayerNorm' : 'RMSNorm'}` : ''}</h2>
            <div class="inspector-depth-plots">
              <ScrollBox label="RMS of each position">
                <ResidualDepthPlot names={result.depth.names} rms={result.depth.rms} labels={result.labels} title="RMS of each position" testId="depth-plot" model={model} />
              </ScrollBox>
              {result.depth.gradRms !== null && (
                <ScrollBox label="RMS of its gradient">
                  <ResidualDepthPlot names={result.depth.names} rms={result.depth.gradRms} labels={result.labels} title="RMS of its gradient" grad testId="depth-grad-plot" model={model} />
                </ScrollBox>
              )}
            </div>
          </div>
          <div class="card" data-testid="look-inside-card">
            <h2>Look inside: attention heads, the logit lens, the residual ledger, interventions, a gradient check</h2>
            <LookInside ctx={lookInsideContext(result, w.info, open)} />
          </div>
          {result.snapshotGradNorms !== null && result.paramGradNorms !== null && (
            <div class="card">
              <h2>Gradients by layer</h2>
              <GradientNorms snapshotNorms={result.snapshotGradNorms} paramNorms={result.paramGradNorms} onSelect={openGrad} model={model} />
            </div>
          )}
        </div>
      )}
    </section>
  );
}
