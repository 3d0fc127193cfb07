import { usdToNano } from './money.js';

export type PlanId = 'free' | 'starter' | 'pro' | 'enterprise';

export interface Plan {
  id: PlanId;
  name: string;
  priceUsd: number;
  monthlyCreditsNano: number;
  rpm: number;
  tpm: number;
  /** null: unlimited. */
  maxKeys: number | null;
  /** Percent off token prices. */
  discountPercent: number;
  webhooks: boolean;
}

/** The plan table of the API document, §8 Limits. */
export const PLANS: Readonly<Record<PlanId, Plan>> = {
  free: {
    id: 'free',
    name: 'Free',
    priceUsd: 0,
    monthlyCreditsNano: usdToNano(0),
    rpm: 10,
    tpm: 10_000,
    maxKeys: 1,
    discountPercent: 0,
    webhooks: false,
  },
  starter: {
    id: 'starter',
    name: 'Starter',
    priceUsd: 9,
    monthlyCreditsNano: usdToNano(10),
    rpm: 60,
    tpm: 60_000,
    maxKeys: 3,
    discountPercent: 0,
    webhooks: false,
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    priceUsd: 29,
    monthlyCreditsNano: usdToNano(50),
    rpm: 300,
    tpm: 150_000,
    maxKeys: 10,
    discountPercent: 10,
    webhooks: true,
  },
  enterprise: {
    id: 'enterprise',
    name: 'Enterprise',
    priceUsd: 99,
    monthlyCreditsNano: usdToNano(200),
    rpm: 1000,
    tpm: 500_000,
    maxKeys: null,
    discountPercent: 20,
    webhooks: true,
  },
};

export const PLAN_IDS = Object.keys(PLANS) as PlanId[];
