// Starts the Turnstile stand-in (scripts/turnstile-stand-in.ts) for the workers project
// (vitest globalSetup): the worker's siteverify calls go to it.
import type { TestProject } from 'vitest/node'
import { startTurnstileStandIn } from '../../scripts/turnstile-stand-in'

export default async function setup(project: TestProject) {
  const standIn = await startTurnstileStandIn()
  project.provide('turnstileVerifyUrl', standIn.verifyUrl)
  return standIn.close
}
