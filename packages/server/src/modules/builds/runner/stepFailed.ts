/** A build that cannot go on, for a reason its log and its page give in one sentence. */
export class BuildStepFailed extends Error {}
