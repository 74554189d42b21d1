// A setup file: each journey file holds one of the run's journey slots from before its first hook
// to after its last. Waiting for a slot is not part of any hook's time, so a file queued behind two
// long journeys does not fail its beforeAll on the hook timeout.
import { afterAll } from 'vitest';
import { takeJourneySlot } from './journeySlots.ts';

const giveBack = await takeJourneySlot();
afterAll(giveBack);
