// A Train view run's link to its trainer worker: the engine's client
// (app/trainClient.ts, one worker per run) behind the RunLink the run state
// uses, and the runs the trainer kept in this browser's storage.
import { TrainClient } from '../app/trainClient';
import type { SpawnRun } from './train';

export const spawnRun: SpawnRun = (onEvent) => {
  const client = new TrainClient();
  client.on(onEvent);
  return {
    send(command) {
      // the client moves the buffers of a start's data and weights itself
      switch (command.type) {
        case 'start':
          return client.start(command.spec);
        case 'resume-saved':
          return client.resumeSaved(command.key);
        case 'pause':
          return client.pause();
        case 'resume':
          return client.resume();
        case 'stop':
          return client.stop();
        case 'save':
          return client.save();
      }
    },
    dispose: () => client.dispose(),
  };
};

export type { SavedRunInfo as SavedRun } from '../common/trainStore';
export { deleteSavedRun as discardSavedRun, listSavedRuns } from '../common/trainStore';
