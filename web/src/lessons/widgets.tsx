// Widget name (as written in lesson files) -> component. TypeScript checks that
// every name in widgetNames.ts has one; an unknown name shows a visible error.
import type { FunctionComponent } from 'preact';
import { AutogradGraph } from '../widgets/lessons/AutogradGraph';
import { BroadcastExplorer } from '../widgets/lessons/BroadcastExplorer';
import { AttentionPattern } from '../widgets/lessons/AttentionPattern';
import { AttentionRopeOffset } from '../widgets/lessons/AttentionRopeOffset';
import { BlockDiagram } from '../widgets/lessons/BlockDiagram';
import { ByteEmbeddings } from '../widgets/lessons/ByteEmbeddings';
import { EmbeddingGrad } from '../widgets/lessons/ByteEmbeddingsGrad';
import { ByteSimilarity } from '../widgets/lessons/ByteEmbeddingsSimilarity';
import { GammaCounterexample } from '../widgets/lessons/GammaCounterexample';
import { GradientPath } from '../widgets/lessons/GradientPath';
import { InspectorTour } from '../widgets/lessons/InspectorTour';
import { EpsilonLabWidget, NormCompareWidget, RmsNormGraphWidget, SeedExampleWidget } from '../widgets/lessons/LabWidgets';
import { ModelGradNorms } from '../widgets/lessons/ModelGradNorms';
import { NextByteLoss } from '../widgets/lessons/LossNextByte';
import { References } from '../widgets/lessons/References';
import { RowNorm } from '../widgets/lessons/RowNorm';
import { SwigluModel } from '../widgets/lessons/SwigluModel';
import { SwigluSiluGate } from '../widgets/lessons/SwigluSiluGate';
import { isWidgetName, type WidgetName } from './widgetNames';

type WidgetProps = { args: Record<string, string> };

const REGISTRY: Record<WidgetName, FunctionComponent<WidgetProps>> = {
  'row-norm': RowNorm,
  'rmsnorm-graph': RmsNormGraphWidget,
  'norm-compare': NormCompareWidget,
  'epsilon-lab': EpsilonLabWidget,
  'seed-example': SeedExampleWidget,
  'gamma-counterexample': GammaCounterexample,
  'block-diagram': BlockDiagram,
  'gradient-path': GradientPath,
  'model-grad-norms': ModelGradNorms,
  'inspector-tour': InspectorTour,
  references: References,
  'autograd-graph': AutogradGraph,
  'broadcast-shapes': BroadcastExplorer,
  'attention-pattern': AttentionPattern,
  'rope-offset': AttentionRopeOffset,
  'next-byte-loss': NextByteLoss,
  'silu-gate': SwigluSiluGate,
  'model-swiglu': SwigluModel,
  'byte-embeddings': ByteEmbeddings,
  'byte-similarity': ByteSimilarity,
  'embedding-grad': EmbeddingGrad,
};

export function LessonWidget({ name, args }: { name: string; args: Record<string, string> }) {
  if (!isWidgetName(name))
    return (
      <p class="lesson-error" role="alert" data-testid="unknown-widget">
        This lesson asks for a widget named “{name}”, which does not exist.
      </p>
    );
  const W = REGISTRY[name];
  return <W args={args} />;
}
