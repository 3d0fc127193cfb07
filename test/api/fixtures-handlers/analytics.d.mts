import type { RequestHandler } from 'msw';

export declare const handlers: RequestHandler[];
