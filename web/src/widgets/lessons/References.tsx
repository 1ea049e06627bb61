// The three papers behind this lesson, and what each does (and does not) say
// about this model. The model's side is read from the loaded weights' configuration.
import { fmtScale } from '../../app/format';
import { useWeights } from '../../viewmodels/model';
import './lessonWidgets.css';
import type { LessonWidgets } from '../../lessons/widgetTypes';

export const lessonWidgets: LessonWidgets = { references: References };

const PAPERS = [
  {
    cite: 'Biao Zhang and Rico Sennrich, “Root Mean Square Layer Normalization”, NeurIPS 2019.',
    href: 'https://arxiv.org/abs/1910.07467',
    role: 'Introduces RMSNorm: rescale by the root mean square, no mean subtraction, no bias.',
  },
  {
    cite: 'Ruibin Xiong et al., “On Layer Normalization in the Transformer Architecture”, ICML 2020.',
    href: 'https://arxiv.org/abs/2002.04745',
    role: 'Analyses where the norm goes (pre-norm vs post-norm) — for LayerNorm; this model uses RMSNorm in the pre-norm position.',
  },
  {
    cite: 'Kaiming He, Xiangyu Zhang, Shaoqing Ren and Jian Sun, “Deep Residual Learning for Image Recognition”, preprint 2015 (CVPR 2016).',
    href: 'https://arxiv.org/abs/1512.03385',
    role: 'Residual connections in convolutional vision networks: historical background, not a description of this decoder.',
  },
];

export function References() {
  const w = useWeights({ load: true });
  return (
    <div class="lesson-widget" data-testid="widget-references">
      <ol class="refs">
        {PAPERS.map((p) => (
          <li key={p.href}>
            <a href={p.href} target="_blank" rel="noopener noreferrer">{p.cite}</a>
            <p>{p.role}</p>
          </li>
        ))}
      </ol>
      <p class="widget-note" data-testid="refs-model">
        {w.status === 'ready'
          ? `This model, as loaded: ${w.info.blocks} pre-norm blocks, ${w.info.norms} RMSNorm layers with ε = ${fmtScale(w.info.eps)}, ${w.info.blocks * 2} residual additions, no LayerNorm.`
          : 'Loading the model’s configuration…'}
      </p>
    </div>
  );
}
