export type ModelId = 'model-a' | 'model-b' | 'model-c';

export interface Model {
  id: ModelId;
  description: string;
  /** List price, nano-dollars per token (= USD per 1M tokens × 1000). */
  inputNanoPerToken: number;
  outputNanoPerToken: number;
  contextWindow: number;
}

/** The token price table of the API document, §8 Token pricing. */
export const MODELS: Readonly<Record<ModelId, Model>> = {
  'model-a': {
    id: 'model-a',
    description: 'Model A (larger general model)',
    inputNanoPerToken: 3_250,
    outputNanoPerToken: 13_000,
    contextWindow: 128_000,
  },
  'model-b': {
    id: 'model-b',
    description: 'Model B (smaller general model)',
    inputNanoPerToken: 200,
    outputNanoPerToken: 600,
    contextWindow: 128_000,
  },
  'model-c': {
    id: 'model-c',
    description: 'Model C (third-party large model)',
    inputNanoPerToken: 3_900,
    outputNanoPerToken: 19_500,
    contextWindow: 200_000,
  },
};

export const DEFAULT_MODEL: ModelId = 'model-b';
export const MODEL_IDS = Object.keys(MODELS) as ModelId[];
