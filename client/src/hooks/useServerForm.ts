import { useEffect } from 'react'
import { useForm, type FormValidateInput } from '@mantine/form'
import { useDirtyFormGuard } from '../components/DirtyFormGuard/DirtyFormGuard'

interface ServerFormOptions<Entity, Values extends Record<string, unknown>> {
  /** The server's current copy (a query's data; pushes and refetches replace it). */
  entity: Entity
  /** Form values of an entity (the entity's defaults live here, once per form). */
  valuesOf: (entity: Entity) => Values
  /** Usually the form's own rules plus `zodErrors(sharedSchema, bodyOf(values))`. */
  validate: FormValidateInput<Values>
}

/**
 * A form editing a server entity (game info, challenge): starts from the entity, follows changes
 * of it (pushes, refetches) while there are no unsaved edits, guards leaving with unsaved edits,
 * and `saved(entity)` makes a save's answer the new clean state.
 */
export function useServerForm<Entity, Values extends Record<string, unknown>>({ entity, valuesOf, validate }: ServerFormOptions<Entity, Values>) {
  const form = useForm<Values>({ mode: 'controlled', initialValues: valuesOf(entity), validate })
  const dirty = form.isDirty()
  const guard = useDirtyFormGuard(dirty)

  const reset = (values: Values) => {
    form.setInitialValues(values)
    form.setValues(values)
  }

  // Compared by content: a refetch returning the same entity must not reset anything.
  const serverValues = JSON.stringify(valuesOf(entity))
  useEffect(() => {
    if (!form.isDirty()) reset(JSON.parse(serverValues) as Values)
  }, [serverValues])

  return { form, dirty, guard, saved: (next: Entity) => reset(valuesOf(next)) }
}
