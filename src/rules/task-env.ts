import type { Faker } from '@faker-js/faker';
import type { State } from '../model/state.js';
import type { Task } from '../model/types.js';
import type { TaskTimings } from './task-progress.js';

export type TaskEventType = 'task.created' | 'task.started' | 'task.completed' | 'task.failed';

/** A move of a task, at the sandbox time it happened (for observers such as webhooks). */
export interface TaskEvent {
  type: TaskEventType;
  task: Task;
  at: number;
}

/** What task rules need beside the state. */
export interface TaskEnv {
  state: State;
  seed: number;
  faker: Faker;
  timings: TaskTimings;
  /** How many finished tasks are kept; the oldest finished beyond it are dropped (then read 404). Default: all. */
  taskRetention?: number;
  /** Told of every task move, in order, exactly once. */
  onTaskEvent?: (event: TaskEvent) => void;
  /** True while no observer needs the moves a settle makes (webhooks without endpoints): it then makes no events. */
  quietMoves?: () => boolean;
}
