import type { Deploy, DeployBase, DeployedRelease } from '@wharf/contract';
import {
  arrayOf,
  checkedAs,
  isBoolean,
  isNothing,
  isNumber,
  isString,
  objectWith,
  orNull,
  stringPair,
} from './answerChecks.ts';

// The answers of the upload's calls, checked for the fields the upload and its summary read.

export const readDeployBase = checkedAs<DeployBase>(
  objectWith({
    encodings: arrayOf(isString),
    release: orNull(objectWith({ _id: isString, files: arrayOf(stringPair) })),
  }),
);

export const readDeploy = checkedAs<Deploy>(objectWith({ _id: isString, missing: arrayOf(isString) }));

export const readNothing = checkedAs<undefined>(isNothing);

const ruleProblem = objectWith({ file: isString, line: isNumber, message: isString, severity: isString });
const deployedBranch = objectWith({ _id: isString, name: isString, url: isString, expiresAt: orNull(isString) });

export const readDeployedRelease = checkedAs<DeployedRelease>(
  objectWith({
    _id: isString,
    name: isString,
    url: isString,
    fileCount: isNumber,
    size: isNumber,
    unchanged: isBoolean,
    ruleProblems: arrayOf(ruleProblem),
    deployedBranches: arrayOf(deployedBranch),
  }),
);
