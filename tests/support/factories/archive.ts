/** A finished game for the static archive's tests (docs/archive.md#static-archive). */
import { Game } from '../../../server/src/entities/Game.js'
import { GameNotice } from '../../../server/src/entities/GameNotice.js'
import type { TestServer } from '../server.js'
import { createChallenge, createGame, createParticipation } from './games.js'
import { createInstances, createSubmission } from './play.js'
import { createTeam } from './teams.js'
import { createUser } from './users.js'

/** A finished game with two teams that scored, a notice and an attachment. */
export async function finishedGame(s: TestServer): Promise<{ game: Game; attachment: string }> {
  const hour = 3600_000
  const game = await createGame(s, { title: 'Finished </script> CTF', start: new Date(Date.now() - 5 * hour), end: new Date(Date.now() - hour), wpddl: new Date() })
  const attachment = `handout ${Date.now()}`
  const e = s.services.orm.em.fork()
  const blob = await s.services.storage.stage(Buffer.from(attachment))
  await s.services.storage.place(blob)
  await e.execute(`insert into files (hash, name, file_size, upload_time, reference_count, content_type) values (?, 'handout.txt', ?, now(), 1, 'text/plain')`, [blob.hash, blob.size])
  const [att] = await e.execute<{ id: number }[]>(`insert into attachments (type, file_hash, file_name) values ('Local', ?, 'handout.txt') returning id`, [blob.hash])
  const one = await createChallenge(s, game, { title: 'First', content: 'Describe <b>me</b>', originalScore: 100, attachment: att!.id })
  const two = await createChallenge(s, game, { title: 'Second', originalScore: 200 })
  const alpha = await createParticipation(s, game, await createTeam(s, (await createUser(s)).user, [], { name: 'Alpha' }), [])
  const beta = await createParticipation(s, game, await createTeam(s, (await createUser(s)).user, [], { name: 'Beta' }), [])
  await createInstances(s, [alpha, beta], [one, two])
  await createSubmission(s, game, one, alpha, null, { submitTime: new Date(Date.now() - 4 * hour) })
  await createSubmission(s, game, two, alpha, null, { submitTime: new Date(Date.now() - 3 * hour) })
  await createSubmission(s, game, one, beta, null, { submitTime: new Date(Date.now() - 2 * hour) })
  e.create(GameNotice, { game: game.id, type: 'Normal', content: 'Thanks for playing', publishTime: new Date(Date.now() - hour) })
  await e.flush()
  // The solves reach the board through the engine's rebuild; the archive shows the board as it is then.
  for (let i = 0; i < 100 && (await s.services.scoreboard.get(game.id)).items.length < 2; i++) await new Promise((r) => setTimeout(r, 100))
  return { game, attachment }
}
