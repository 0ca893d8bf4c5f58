/**
 * Adapts the language-model layer's `Policy` (ONNX graphs, LoRA or full tuning) to the
 * trainer's {@link TrainablePolicy}: gradient accumulation into host buffers, batched
 * generation grouped by length limit, and the chat codec. Both layers index log-probs by token
 * (entry t scores token t, entry 0 is 0), so scores and weights pass through unshifted.
 */
import type { Rng } from '../../gym/rng.js';
import type { Policy } from '../../lm/compute/policy.js';
import { LanguageModel } from '../../lm/model/language-model.js';
import { TemplateChatCodec } from './template-chat-codec.js';
import type { ChatCodec, GenerateRequest, GenerateResult, TokenScores, TrainableParameter, TrainablePolicy } from './trainable-policy.js';

/**
 * A trainable policy backed by an ONNX transformer.
 *
 * With `score(..., { entropy: true })` it returns the exact entropy of the full next-token
 * distribution at every position (computed in the scoring graph), and `backward` with entropy
 * weights differentiates that entropy too, so `grpo.loss.entropyCoef` is a real entropy bonus.
 *
 * @example
 * ```ts
 * const lmPolicy = await Policy.create(model, { adapter });
 * const policy = new LmTrainablePolicy(lmPolicy);
 * ```
 */
export class LmTrainablePolicy implements TrainablePolicy {
  readonly codec: ChatCodec;
  private params: TrainableParameter[];
  private disposed = false;

  /**
   * @param lm the LM-layer policy (owned by this adapter from now on: `dispose()` closes it).
   * @param recreate builds a policy over a model with other base weights; needed by
   *   {@link freezeReference} under full tuning (LoRA's reference is adapters-off and needs none).
   */
  constructor(
    private lm: Policy,
    private readonly recreate?: (model: LanguageModel) => Promise<Policy>,
  ) {
    const tokenizer = lm.model.tokenizer;
    const endOfTurn = tokenizer.idToToken(lm.model.generationDefaults.stopTokenIds.find((id) => tokenizer.idToToken(id) === '<|im_end|>') ?? lm.model.generationDefaults.stopTokenIds[0] ?? 0) ?? '<|im_end|>';
    this.codec = new TemplateChatCodec(tokenizer, endOfTurn);
    this.params = this.bindParameters();
  }

  private bindParameters(): TrainableParameter[] {
    return [...this.lm.trainableParameters()].map(([name, t]) => ({ name, shape: t.shape, value: t.data, grad: new Float32Array(t.data.length) }));
  }

  async generate(requests: readonly GenerateRequest[], rng: Rng): Promise<GenerateResult[]> {
    const results = new Array<GenerateResult>(requests.length);
    const groups = new Map<string, number[]>();
    requests.forEach((r, i) => {
      const key = `${r.maxNewTokens}|${r.temperature}|${r.topP}`;
      const list = groups.get(key) ?? [];
      list.push(i);
      groups.set(key, list);
    });
    for (const indices of groups.values()) {
      const first = requests[indices[0]!]!;
      const gens = await this.lm.generate(
        indices.map((i) => requests[i]!.prompt),
        { maxTokens: first.maxNewTokens, temperature: first.temperature, topP: first.topP, seed: rng.int(0x7fffffff) },
      );
      gens.forEach((g, j) => {
        results[indices[j]!] = { tokens: [...g.tokenIds], logprobs: [...g.logprobs], finishReason: g.finishReason === 'length' ? 'length' : 'stop' };
      });
    }
    return results;
  }

  async score(sequences: readonly (readonly number[])[], options: { reference?: boolean; entropy?: boolean } = {}): Promise<TokenScores[]> {
    const { logprobs, entropies } = await this.lm.score(sequences, { reference: options.reference ?? false, entropy: options.entropy ?? false });
    return logprobs.map((lp, i) => (entropies ? { logprobs: lp, entropies: entropies[i]! } : { logprobs: lp }));
  }

  async backward(sequences: readonly (readonly number[])[], logprobWeights: readonly Float64Array[], entropyWeights?: readonly Float64Array[]): Promise<void> {
    // The entropy graph costs extra vocabulary-sized buffers: use it only for a non-zero bonus.
    const withEntropy = entropyWeights !== undefined && entropyWeights.some((w) => w.some((v) => v !== 0));
    const { gradients } = await this.lm.backward(sequences, logprobWeights, withEntropy ? { entropyWeights } : {});
    for (const p of this.params) {
      const g = gradients.get(p.name);
      if (!g) continue;
      for (let i = 0; i < p.grad.length; i++) p.grad[i] = p.grad[i]! + g.data[i]!;
    }
  }

  parameters(): TrainableParameter[] {
    return this.params;
  }

  /**
   * Makes the current weights the KL reference. LoRA: nothing to do (the reference is the base
   * model with adapters off). Full tuning: the LM policy scores references with its base
   * weights, so it is rebuilt over a model whose base weights are the current ones; the
   * optimizer keeps working because parameter objects are rebound in place.
   */
  async freezeReference(): Promise<void> {
    if (this.lm.train !== 'full') return;
    if (!this.recreate) throw new Error('full-tuning reference refresh needs the `recreate` factory of LmTrainablePolicy');
    const model = this.lm.model;
    const weights = new Map(model.weights);
    for (const p of this.params) weights.set(p.name, { shape: p.shape, data: Float32Array.from(p.value) });
    const next = await this.recreate(new LanguageModel(model.dir, model.config, model.tokenizer, model.generationDefaults, weights));
    await this.lm.close();
    this.lm = next;
    const fresh = new Map(this.bindParameters().map((p) => [p.name, p]));
    // Keep the objects the optimizer holds; point them at the new policy's buffers.
    for (const p of this.params) Object.assign(p, { value: fresh.get(p.name)!.value });
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.lm.close();
  }
}
