/** Money is held in integer nano-dollars (1 USD = 1e9); USD numbers appear only at the edge. */
const NANO_PER_USD = 1_000_000_000;

/** USD (a JSON number) → integer nano-dollars. */
export function usdToNano(usd: number): number {
  return Math.round(usd * NANO_PER_USD);
}

/** Integer nano-dollars → USD number for JSON. */
export function nanoToUsd(nano: number): number {
  return nano / NANO_PER_USD;
}
