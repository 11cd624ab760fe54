// Starts the Sentry capture server for the workers project (vitest globalSetup).
import type { TestProject } from 'vitest/node'
import { startCaptureServer } from './capture-server'

export default async function setup(project: TestProject) {
  const capture = await startCaptureServer()
  project.provide('sentryOrigin', capture.origin)
  return capture.close
}
