// The glossary: each term a lesson links to with [words](glossary:<id>), in a
// learner's words, with the names the code uses (snapshot and parameter names,
// docs/model.md) and the TransformerLens name where there is one. `lesson` is the
// lesson that introduces the term: tests/web/lessonContent.test.ts checks that no
// lesson links a term a later lesson introduces, and that the introducing lesson
// links it. Plain text only: no numbers (those are the lessons' and the core's).

export interface GlossaryTerm {
  /** The id a lesson links to: [words](glossary:<id>). */
  id: string;
  /** The plain name. */
  term: string;
  /** What it is, in a sentence or two. */
  means: string;
  /** Names in GlassLLM's code: snapshots, parameters, options ({i} is the block number). */
  code: string[];
  /** The TransformerLens name(s), when there is one. */
  lens: string[];
  /** The slug of the lesson that introduces it. */
  lesson: string;
}

export const GLOSSARY: readonly GlossaryTerm[] = [
  // the tour: the whole model once
  { id: 'byte', term: 'byte (token)', lesson: 'tour', means: 'The unit the model reads and predicts: one of the values a single byte can take. A plain letter is one byte; an accented letter or an emoji is two to four.', code: ['ids'], lens: ['tokens'] },
  { id: 'embedding', term: 'embedding', lesson: 'tour', means: 'A learned table with one row per possible byte. Each byte of the input is replaced by its row: the start of the residual stream.', code: ['tok_emb.weight', 'embed'], lens: ['W_E', 'hook_embed'] },
  { id: 'residual-stream', term: 'residual stream', lesson: 'tour', means: 'The running grid of numbers, one row per position, that every block reads from and adds to. Nothing overwrites it: each branch adds its output.', code: ['embed', 'blocks.{i}.resid.attn', 'blocks.{i}.resid.ffn'], lens: ['blocks.{i}.hook_resid_pre', 'blocks.{i}.hook_resid_mid', 'blocks.{i}.hook_resid_post'] },
  { id: 'block', term: 'block (layer)', lesson: 'tour', means: 'One repeated unit of the model: norm, attention, add; then norm, SwiGLU, add. The blocks run one after another.', code: ['blocks.{i}'], lens: ['blocks.{i}'] },
  { id: 'rmsnorm', term: 'RMSNorm (a norm)', lesson: 'tour', means: 'Divides each position’s numbers by their root mean square, then multiplies by a learned gain γ: every branch reads its input at a steady size, however large the stream has grown.', code: ['blocks.{i}.norm.attn', 'blocks.{i}.norm.ffn', 'norm.final', 'blocks.{i}.norm_attn.gamma', 'blocks.{i}.norm_ffn.gamma', 'norm_final.gamma'], lens: ['blocks.{i}.ln1', 'blocks.{i}.ln2', 'ln_final', 'hook_normalized'] },
  { id: 'attention', term: 'attention', lesson: 'tour', means: 'The branch where positions exchange information: each position builds its output from the positions up to and including itself.', code: ['blocks.{i}.attn'], lens: ['blocks.{i}.attn', 'blocks.{i}.hook_attn_out'] },
  { id: 'swiglu', term: 'SwiGLU (feed-forward branch)', lesson: 'tour', means: 'The second branch of every block: it widens each position, gates it with silu, and brings it back, working on each position on its own.', code: ['blocks.{i}.ffn', 'blocks.{i}.ffn.w_gate.weight', 'blocks.{i}.ffn.w_up.weight', 'blocks.{i}.ffn.w_down.weight'], lens: ['blocks.{i}.mlp', 'W_gate', 'W_in', 'W_out', 'blocks.{i}.hook_mlp_out'] },
  { id: 'head', term: 'head (unembedding)', lesson: 'tour', means: 'The last table of the model: it turns each position’s numbers into one score per possible next byte. Not to be confused with an attention head.', code: ['head.weight'], lens: ['W_U', 'unembed'] },
  { id: 'logits', term: 'logits (scores)', lesson: 'tour', means: 'The head’s output: one unbounded score per possible next byte at every position. Softmax turns a row of them into probabilities.', code: ['logits'], lens: ['logits'] },
  { id: 'loss', term: 'loss (next-byte cross-entropy)', lesson: 'tour', means: 'How surprised the model is by the byte that really came next, −ln of the probability it gave it, averaged over the positions; measured in nats.', code: ['loss'], lens: ['loss'] },
  { id: 'parameter', term: 'parameter (weight)', lesson: 'tour', means: 'A number the model learned in training. The tables of the embedding, the branches, the norms’ gains and the head are all parameters.', code: ['model.param(name)'], lens: [] },
  // tensors and autograd
  { id: 'tensor', term: 'tensor', lesson: 'tensors-autograd', means: 'A block of numbers read through a shape, such as (positions, numbers per position), and stored in one dtype.', code: ['glass.tensor'], lens: [] },
  { id: 'dtype', term: 'dtype (float32, float64)', lesson: 'tensors-autograd', means: 'How each number of a tensor is stored: float32 keeps about 7 significant digits, float64 about 16.', code: ['dtype'], lens: ['cfg.dtype'] },
  { id: 'broadcasting', term: 'broadcasting', lesson: 'tensors-autograd', means: 'Stretching a tensor along an axis of size 1 (or a missing axis) so that two tensors of different shapes can be combined entry by entry.', code: [], lens: [] },
  { id: 'gradient', term: 'gradient', lesson: 'tensors-autograd', means: 'How much a result changes per small change of each input: one number per input, of the input’s shape.', code: ['x.grad', 'model.paramGrad(name)'], lens: [] },
  { id: 'autograd', term: 'autograd (backward pass)', lesson: 'tensors-autograd', means: 'The core records each operation as it runs; walking that record backward from one result gives the gradient of every input at once.', code: ['backward()'], lens: [] },
  // bytes and embeddings
  { id: 'utf8', term: 'UTF-8', lesson: 'bytes-embeddings', means: 'The standard way to write any text as bytes: one byte for plain ASCII, two to four for everything else.', code: [], lens: [] },
  { id: 'context', term: 'context (window)', lesson: 'bytes-embeddings', means: 'The most bytes the model reads at once; a longer text is cut to its last bytes.', code: ['context'], lens: ['n_ctx'] },
  // attention
  { id: 'qkv', term: 'queries, keys and values', lesson: 'attention', means: 'Three learned maps of each position: a query says what it looks for, a key what it offers, a value what it hands over when picked.', code: ['blocks.{i}.attn.wq.weight', 'blocks.{i}.attn.wk.weight', 'blocks.{i}.attn.wv.weight'], lens: ['W_Q', 'W_K', 'W_V', 'hook_q', 'hook_k', 'hook_v'] },
  { id: 'causal-mask', term: 'causal mask', lesson: 'attention', means: 'The rule that a position may not look at later positions: their scores are set to minus infinity before softmax.', code: [], lens: ['hook_attn_scores'] },
  { id: 'attention-pattern', term: 'attention pattern', lesson: 'attention', means: 'For one head, how much weight each position gives each earlier position: softmax rows that add up to 1.', code: ['blocks.{i}.attn.pattern'], lens: ['blocks.{i}.attn.hook_pattern'] },
  { id: 'attention-head', term: 'attention head', lesson: 'attention', means: 'One of the parallel attentions inside a block, working on its own slice of the queries, keys and values.', code: ['heads'], lens: ['n_heads', 'head_index'] },
  { id: 'rope', term: 'RoPE (rotary positions)', lesson: 'attention', means: 'How position enters: queries and keys are rotated by angles that grow with position, so their dot product depends on how far apart two bytes are.', code: ['rope_base'], lens: ['hook_rot_q', 'hook_rot_k'] },
  { id: 'output-projection', term: 'output projection', lesson: 'attention', means: 'The last map of attention: it mixes the heads’ outputs back into the stream’s width.', code: ['blocks.{i}.attn.wo.weight'], lens: ['W_O', 'hook_z'] },
  // SwiGLU
  { id: 'silu', term: 'silu (swish)', lesson: 'swiglu', means: 'The smooth gate z · σ(z): close to z for large z, close to 0 for very negative z, dipping slightly below 0 in between.', code: ['silu'], lens: ['act_fn = "silu"'] },
  { id: 'hidden-units', term: 'hidden units', lesson: 'swiglu', means: 'The wider layer inside SwiGLU, where each unit is a gate times an up value.', code: ['hidden'], lens: ['d_mlp', 'hook_post'] },
  // logits and loss
  { id: 'softmax', term: 'softmax', lesson: 'logits-loss', means: 'Turns a row of scores into probabilities: exponentiate each, divide by their total.', code: ['softmax'], lens: [] },
  { id: 'nats', term: 'nats (and bits)', lesson: 'logits-loss', means: 'The unit of surprise with the natural logarithm; divide by ln 2 for bits.', code: [], lens: [] },
  // RMSNorm, pre-norm and residuals
  { id: 'gain', term: 'gain γ (gamma)', lesson: 'rmsnorm', means: 'The learned per-coordinate multiplier of a norm: it stretches or damps each coordinate after the division.', code: ['blocks.{i}.norm_attn.gamma', 'blocks.{i}.norm_ffn.gamma', 'norm_final.gamma'], lens: ['ln1.w', 'ln2.w', 'ln_final.w'] },
  { id: 'epsilon', term: 'ε (epsilon)', lesson: 'rmsnorm', means: 'A tiny number added to the mean square before the square root, so that an all-zero row does not divide by zero.', code: ['eps'], lens: ['cfg.eps'] },
  { id: 'pre-norm', term: 'pre-norm', lesson: 'rmsnorm', means: 'Norms placed before each branch, on a copy of the stream, so the stream itself is never normalized; post-norm normalizes the stream after each addition.', code: ['norm: pre'], lens: [] },
  { id: 'residual-connection', term: 'residual connection', lesson: 'rmsnorm', means: 'Adding a branch’s output to its input instead of replacing it: the reason a gradient always has a direct path back.', code: ['residual'], lens: [] },
  // training
  { id: 'batch', term: 'batch', lesson: 'training', means: 'The few windows of text one training step learns from at once.', code: ['batch'], lens: [] },
  { id: 'adamw', term: 'AdamW', lesson: 'training', means: 'The optimizer: it moves each weight using running averages of its gradient and of its square, and shrinks matrices a little each step (weight decay).', code: ['lr', 'weight_decay'], lens: [] },
  { id: 'validation-loss', term: 'validation loss', lesson: 'training', means: 'The loss on text kept out of training: what tells learning a language from memorizing a text.', code: ['valLoss'], lens: [] },
  // reading the residual stream
  { id: 'logit-lens', term: 'logit lens', lesson: 'residual-stream', means: 'Applying the final norm and the head to the stream at any depth, as if the model stopped there.', code: ['model.lens(text)'], lens: ['accumulated_resid', 'apply_ln_to_stack'] },
  { id: 'ablation', term: 'ablation', lesson: 'residual-stream', means: 'Taking one part out for one run (setting its output to zero) to measure what the model loses without it.', code: ['ablateHead', 'model.ablations(text)'], lens: [] },
];

export const glossaryTerm = (id: string): GlossaryTerm | null => GLOSSARY.find((t) => t.id === id) ?? null;

/** The glossary ids a lesson's text links to, in order of first appearance: [words](glossary:<id>). */
export function glossaryLinks(text: string): string[] {
  const ids: string[] = [];
  for (const m of text.matchAll(/\]\(glossary:([a-z0-9-]*)\)/g)) if (m[1] !== '' && !ids.includes(m[1])) ids.push(m[1]);
  return ids;
}
