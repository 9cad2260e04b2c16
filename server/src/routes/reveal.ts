/**
 * The staged reveal (docs/scoring.md#staged-reveal): any watcher reads its state, admins drive it.
 * Every change is also pushed as `ReceivedRevealUpdate` to `Game_{id}` (docs/realtime.md).
 */
import { z } from 'zod'
import { RevealAutoModel, RevealState } from '@flagwave/shared/schemas/replay'
import { intParam, route } from '../http/route.js'
import { autoReveal, finishReveal, openReveal, readReveal, stepReveal } from '../domain/scoreboard/reveal/reveal.js'

const gameParams = z.object({ id: intParam })

export const revealRoutes = [
  route({
    method: 'GET',
    path: '/api/game/:id/reveal',
    params: gameParams,
    response: RevealState,
    summary: "Flagwave: the game's staged reveal — step, auto-play, the last step and the board at this step (open false: none open)",
    handler: async (_ctx, { params, actor, scope }) => readReveal(scope, actor, params.id),
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/reveal',
    role: 'Admin',
    params: gameParams,
    response: RevealState,
    summary: 'Flagwave: open the staged reveal of the current freeze at the frozen board (an open one is kept as it is)',
    handler: async (_ctx, { params, actor, scope }) => openReveal(scope, actor, params.id),
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/reveal/next',
    role: 'Admin',
    params: gameParams,
    response: RevealState,
    summary: 'Flagwave: reveal the next step (the lowest-placed team with pending cells opens its next one: solved or not solved)',
    handler: async (_ctx, { params, scope }) => stepReveal(scope, params.id, 1),
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/reveal/back',
    role: 'Admin',
    params: gameParams,
    response: RevealState,
    summary: 'Flagwave: go back one step of the reveal',
    handler: async (_ctx, { params, scope }) => stepReveal(scope, params.id, -1),
  }),
  route({
    method: 'PUT',
    path: '/api/edit/games/:id/reveal/auto',
    role: 'Admin',
    params: gameParams,
    body: RevealAutoModel,
    response: RevealState,
    summary: 'Flagwave: auto-play the reveal, one step every intervalMs (250–60000) until the last step; null pauses',
    handler: async (_ctx, { params, body, scope }) => autoReveal(scope, params.id, body.intervalMs),
  }),
  route({
    method: 'POST',
    path: '/api/edit/games/:id/reveal/finish',
    role: 'Admin',
    params: gameParams,
    response: RevealState,
    summary: 'Flagwave: end the reveal and lift the freeze: every board shows the final standings',
    handler: async (_ctx, { params, actor, scope }) => finishReveal(scope, actor, params.id),
  }),
]
