/**
 * What the type checker knows of one declared resource, carried by the group `app.resource()`
 * returns (type only: nothing of it exists at run time). The typed client reads it.
 */
export interface ResourceSpec<
  Stem extends string = string,
  Parent extends string = string,
  Key extends string = string,
  Schema = unknown,
  Member extends string = string,
  Collection extends string = string,
  Owner extends string = string,
> {
  /** The client's name of the resource: its list route's name without `Path` (`widgetImages`). */
  readonly stem: Stem;
  /** The path parameters of the resources it is nested in (`widget_id`). */
  readonly parent: Parent;
  /** Its own path parameter (`image_id`). */
  readonly key: Key;
  /** The zod schema of its model (`override readonly model = Image`), or `undefined`. */
  readonly schema: Schema;
  /** Its declared member actions (`member: { publish: "post" }`): `publish`. */
  readonly member: Member;
  /** Its declared collection actions (`collection: { search: "get" }`): `search`. */
  readonly collection: Collection;
  /** The owner column (`ownedBy: "user_id"`): set from the signed-in user, never sent. */
  readonly owner: Owner;
}
