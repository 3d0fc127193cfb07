import { MODELS, type ModelId } from '../model/models.js';
import type { Plan } from '../model/plans.js';
import type { Account } from '../model/types.js';
import { ApiError } from './errors.js';
import { nanoToUsd } from '../model/money.js';

export interface TokenPrices {
  /** Nano-dollars per token, after the plan's discount. */
  input: number;
  output: number;
}

/** The model's list price less the plan's volume discount (Pro 10 %, Enterprise 20 %); whole nano-dollars. */
export function pricesFor(model: ModelId, plan: Plan): TokenPrices {
  const m = MODELS[model];
  const keep = 100 - plan.discountPercent;
  return { input: (m.inputNanoPerToken * keep) / 100, output: (m.outputNanoPerToken * keep) / 100 };
}

/** "Charge is per token consumed: input tokens plus output tokens." */
export function costOf(inputTokens: number, outputTokens: number, prices: TokenPrices): number {
  return inputTokens * prices.input + outputTokens * prices.output;
}

/** What the account can still spend: balance less the holds of its unfinished tasks. */
export function availableNano(account: Account): number {
  return Math.max(0, account.balanceNano - account.heldNano);
}

/**
 * Throws 402 `insufficient_credits` when `amount` exceeds what can be spent. The caller holds the amount in the same
 * synchronous step, so no request can slip between the check and the hold.
 */
export function assertAffordable(amount: number, spendable: number): void {
  if (amount > spendable) {
    throw new ApiError(
      'insufficient_credits',
      `Insufficient credits: this task may cost up to $${nanoToUsd(amount).toFixed(6)} and the available balance is $${nanoToUsd(spendable).toFixed(6)}.`,
    );
  }
}

/** Releases a hold; with `cost`, charges it. The balance never goes below zero. */
export function settleHold(account: Account, hold: number, cost = 0): void {
  account.heldNano = Math.max(0, account.heldNano - hold);
  account.balanceNano = Math.max(0, account.balanceNano - cost);
}
