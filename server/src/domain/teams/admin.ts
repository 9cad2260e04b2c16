/** Team administration (docs/compatibility.md#group-admin). */
import type { EntityManager } from '@mikro-orm/postgresql'
import { LoadStrategy } from '@mikro-orm/core'
import type { AdminTeamModel } from '@flagwave/shared/schemas/teams'
import { Team } from '../../entities/Team.js'
import { badRequest } from '../../lib/errors.js'
import type { Scope } from '../scope.js'
import type { Actor } from '../actor.js'
import { lockTeam, removeTeam } from './teams.js'
import { announceTeamChange } from './events.js'

const SEARCH_LIMIT = 30

/** `GET /api/admin/teams`: by id, with members; `total` = number of teams. */
export async function listTeams(em: EntityManager, count: number, skip: number): Promise<{ teams: Team[]; total: number }> {
  const total = await em.count(Team, {})
  const teams =
    count > 0
      ? await em.find(Team, {}, { populate: ['members'], strategy: LoadStrategy.SELECT_IN, orderBy: { id: 'asc' }, limit: count, offset: Math.max(0, skip) })
      : []
  return { teams, total }
}

/** `POST /api/admin/teams/search`: at most 30 teams whose name holds `hint` (literal, case-sensitive), by id. */
export async function searchTeams(em: EntityManager, hint: string): Promise<Team[]> {
  const rows = await em.execute<{ id: number }[]>(`select id from teams where strpos(name, ?) > 0 order by id limit ${SEARCH_LIMIT}`, [hint])
  if (rows.length === 0) return []
  return em.find(Team, { id: { $in: rows.map((r) => r.id) } }, { populate: ['members'], strategy: LoadStrategy.SELECT_IN, orderBy: { id: 'asc' } })
}

/** `PUT /api/admin/teams/{id}`: null or empty name/bio keep, null locked keeps; a missing team is HTTP 400. */
export async function updateTeamAsAdmin(scope: Scope, actor: Actor, id: number, model: AdminTeamModel): Promise<Team> {
  const team = await scope.em.transactional(async (tx) => {
    const team = await lockTeam(tx, id)
    if (!team) throw badRequest('队伍未找到')
    if (model.name) team.name = model.name
    if (model.bio) team.bio = model.bio
    if (model.locked !== null) team.locked = model.locked
    await tx.flush()
    return team
  })
  announceTeamChange(scope.events, { teamId: team.id, team })
  await scope.services.audit.success(actor, `管理员更新队伍 ${team.name}（#${team.id}）`)
  return team
}

/** `DELETE /api/admin/teams/{id}`: no lock or captain check; 404 `队伍未找到` when missing. */
export async function deleteTeamAsAdmin(scope: Scope, actor: Actor, id: number): Promise<Team> {
  const team = await removeTeam(scope, id, async () => undefined)
  await scope.services.audit.success(actor, `管理员删除队伍 ${team.name}（#${id}）`, 'Warning')
  return team
}
