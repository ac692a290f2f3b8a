import { Type } from '@sinclair/typebox';
import { Data, StringEnum, Timestamp } from './common.js';

/*
 * The web UI's own answers about people (docs/ui-api.md, "People", "Sessions"): the routes under
 * /api/ui serialise with these, and the UI takes its types from them (`import type`).
 */

export const ROLES = ['owner', 'admin', 'member'] as const;
export const Role = StringEnum(ROLES);

/** A person as the UI shows them (the signed-in one, Settings › People). */
export const User = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Role,
  active: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** Someone named beside something: a key's owner or agent, who revealed a key, who made an invite. */
export const PersonRef = Type.Object({ id: Type.String(), name: Type.String() });

export const Invite = Type.Object({
  id: Type.String(),
  role: Role,
  createdAt: Timestamp,
  expiresAt: Timestamp,
  createdBy: PersonRef,
});

/** The answer that created an invite: its link (and token), shown only then. */
export const CreatedInvite = Type.Object({ ...Invite.properties, token: Type.String(), url: Type.String() });

/** An invite link as its page reads it (no session yet). */
export const InviteLookup = Type.Object({ role: Role, expiresAt: Timestamp });

/** How people sign in here: single sign-on offered, and whether everyone may use a password. */
export const SignInOptions = Type.Object({ sso: Type.Boolean(), passwordSignIn: Type.Boolean() });

export const SetupState = Type.Object({ needed: Type.Boolean() });

export const UserAnswer = Data(User);
