import { describe, expect, it } from 'vitest';

import {
  errorBody,
  patchUser,
  readFilter,
  readPatch,
  readUser,
  SCHEMAS,
  ScimError,
  type ScimType,
  type ScimUserInput,
} from './protocol.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** What `run` throws, checked to be a SCIM refusal with this status, `scimType` and detail. */
function refusal(run: () => unknown, status: number, scimType: ScimType | undefined, detail: RegExp): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ScimError);
  const error = thrown as ScimError;
  expect(error.status).toBe(status);
  expect(error.scimType).toBe(scimType);
  expect(error.message).toMatch(detail);
}

const ada: ScimUserInput = {
  userName: 'ada@north.example',
  email: 'ada@north.example',
  externalId: '00u1okta',
  givenName: 'Ada',
  familyName: 'Quill',
  displayName: 'Ada Quill',
  active: true,
};
const patch = (...Operations: unknown[]) => ({ schemas: [PATCH], Operations });

describe('readUser', () => {
  it('requires a userName that is a non-empty string', () => {
    refusal(() => readUser({ schemas: [USER] }), 400, 'invalidValue', /^"userName" is required$/);
    refusal(() => readUser({ schemas: [USER], userName: '   ' }), 400, 'invalidValue', /^"userName" is required$/);
    refusal(() => readUser({ userName: 42 }), 400, 'invalidValue', /^"userName" must be a string$/);
    refusal(() => readUser({ userName: 'x'.repeat(257) }), 400, 'invalidValue', /longer than 256 characters/);
  });

  it('refuses a body that is no User object, or that names other schemas', () => {
    refusal(() => readUser(['not', 'a', 'user']), 400, 'invalidSyntax', /SCIM User object/);
    refusal(() => readUser(null), 400, 'invalidSyntax', /SCIM User object/);
    refusal(
      () => readUser({ schemas: [SCHEMAS.group], userName: 'a@b.example' }),
      400,
      'invalidSyntax',
      /"schemas" must include urn:ietf:params:scim:schemas:core:2\.0:User/,
    );
  });

  it('keeps what the portal keeps, with attribute names in any case, and trims', () => {
    expect(
      readUser({
        schemas: [USER, SCHEMAS.enterpriseUser],
        UserName: '  ada@north.example ',
        ExternalId: '00u1okta',
        name: { GivenName: 'Ada', familyName: 'Quill', formatted: 'ignored' },
        displayName: 'Ada Quill',
        locale: 'en-GB',
        password: 'never kept',
      }),
    ).toEqual(ada);
    // Without schemas, name or displayName: nulls, and active by default.
    expect(readUser({ userName: 'b@north.example' })).toEqual({
      userName: 'b@north.example',
      email: 'b@north.example',
      externalId: null,
      givenName: null,
      familyName: null,
      displayName: null,
      active: true,
    });
    refusal(() => readUser({ userName: 'a@b.example', name: 'Ada' }), 400, 'invalidValue', /"name" must be an object/);
  });

  it('takes the primary e-mail, else the first, else the userName, in lower case', () => {
    const emails = (list: unknown) => readUser({ userName: 'login@north.example', emails: list }).email;
    expect(
      emails([
        { value: 'first@north.example', type: 'home' },
        { value: 'Work@North.example', type: 'work', primary: true },
      ]),
    ).toBe('work@north.example');
    // Entra's string booleans.
    expect(
      emails([
        { value: 'first@north.example', primary: 'False' },
        { value: 'second@north.example', primary: 'True' },
      ]),
    ).toBe('second@north.example');
    expect(emails([{ value: 'first@north.example' }, { value: 'third@north.example', primary: 'true' }])).toBe(
      'third@north.example',
    );
    expect(emails([{ value: 'First@north.example' }, { value: 'second@north.example' }])).toBe('first@north.example');
    expect(emails([])).toBe('login@north.example');
    expect(emails(undefined)).toBe('login@north.example');
    expect(readUser({ userName: 'Login@North.Example' }).email).toBe('login@north.example');
    expect(readUser({ userName: 'Login@North.Example' }).userName).toBe('Login@North.Example');
  });

  it('refuses e-mails that are not a list of objects, or no address at all', () => {
    refusal(
      () => readUser({ userName: 'a@b.example', emails: 'a@b.example' }),
      400,
      'invalidValue',
      /"emails" must be a list/,
    );
    refusal(
      () => readUser({ userName: 'a@b.example', emails: ['a@b.example'] }),
      400,
      'invalidValue',
      /each of "emails" must be an object/,
    );
    refusal(
      () => readUser({ userName: 'ada' }),
      400,
      'invalidValue',
      /"ada" is not an e-mail address: give one as userName or in emails/,
    );
    refusal(
      () => readUser({ userName: 'a@b.example', emails: [{ value: 'not-an-address' }] }),
      400,
      'invalidValue',
      /"not-an-address" is not an e-mail address/,
    );
  });

  it('reads active as a boolean or as Entra’s "True"/"False", and refuses anything else', () => {
    const active = (value: unknown) => readUser({ userName: 'a@b.example', active: value }).active;
    expect(active(true)).toBe(true);
    expect(active(false)).toBe(false);
    expect(active('True')).toBe(true);
    expect(active('False')).toBe(false);
    expect(active('false')).toBe(false);
    expect(active(null)).toBe(true);
    for (const bad of ['maybe', 'yes', 0, 1, {}])
      refusal(() => active(bad), 400, 'invalidValue', /^"active" must be true or false$/);
  });
});

describe('readPatch', () => {
  it('reads the operations with op in lower case, and a path or null', () => {
    expect(
      readPatch({
        schemas: [PATCH],
        Operations: [
          { op: 'Replace', path: 'displayName', value: 'Ada' },
          { op: 'add', value: { active: true } },
          { Op: 'REMOVE', Path: 'externalId' },
        ],
      }),
    ).toEqual([
      { op: 'replace', path: 'displayName', value: 'Ada' },
      { op: 'add', path: null, value: { active: true } },
      { op: 'remove', path: 'externalId', value: undefined },
    ]);
  });

  it('refuses what is no PatchOp, an unknown op, an empty path and a remove without a path', () => {
    refusal(() => readPatch('replace'), 400, 'invalidSyntax', /SCIM PatchOp object/);
    refusal(
      () => readPatch({ Operations: [{ op: 'replace', value: {} }] }),
      400,
      'invalidSyntax',
      /"schemas" must be \[urn:ietf:params:scim:api:messages:2\.0:PatchOp\]/,
    );
    refusal(() => readPatch(patch()), 400, 'invalidSyntax', /"Operations" must be a list of at least one/);
    refusal(
      () => readPatch(patch({ op: 'replace', path: 'displayName', value: 'x' }, { op: 'move', path: 'a' })),
      400,
      'invalidSyntax',
      /^Operation 2: "op" must be add, replace or remove$/,
    );
    refusal(
      () => readPatch(patch({ op: 'replace', path: '  ', value: 'x' })),
      400,
      'invalidPath',
      /Operation 1: "path" must be a non-empty string/,
    );
    refusal(() => readPatch(patch({ op: 'remove' })), 400, 'noTarget', /Operation 1: a remove needs a "path"/);
    refusal(
      () => readPatch(patch(...Array.from({ length: 1001 }, () => ({ op: 'add', path: 'title', value: 'x' })))),
      400,
      'tooMany',
      /At most 1,000 operations/,
    );
  });
});

describe('patchUser', () => {
  it('applies Okta’s replace without a path, and leaves the current user as it was', () => {
    const after = patchUser(ada, patch({ op: 'replace', value: { active: false } }));
    expect(after).toEqual({ ...ada, active: false });
    expect(ada.active).toBe(true);
    expect(patchUser(after, patch({ op: 'replace', value: { active: true, displayName: 'A. Quill' } }))).toEqual({
      ...ada,
      displayName: 'A. Quill',
    });
  });

  it('applies Entra’s "Replace" and "Add" with paths, its "False", and its enterprise attributes (ignored)', () => {
    const after = patchUser(
      ada,
      patch(
        { op: 'Replace', path: 'displayName', value: 'Ada Q. Byron' },
        { op: 'Add', path: 'name.familyName', value: 'Quill-Byron' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'Ada.Byron@North.example' },
        { op: 'Add', path: `${SCHEMAS.enterpriseUser}:department`, value: 'TV' },
        { op: 'Replace', path: 'title', value: 'Engineer' },
      ),
    );
    expect(after).toEqual({
      ...ada,
      displayName: 'Ada Q. Byron',
      familyName: 'Quill-Byron',
      email: 'ada.byron@north.example',
    });
    expect(patchUser(ada, patch({ op: 'Replace', path: 'active', value: 'False' })).active).toBe(false);
    expect(
      patchUser(ada, patch({ op: 'Replace', path: 'emails[primary eq true].value', value: 'p@n.example' })).email,
    ).toBe('p@n.example');
    expect(patchUser(ada, patch({ op: 'Remove', path: 'name.givenName' })).givenName).toBeNull();
  });

  it('refuses an attribute it does not know, and applies none of the operations', () => {
    const current = { ...ada };
    refusal(
      () =>
        patchUser(
          current,
          patch(
            { op: 'replace', path: 'displayName', value: 'Changed' },
            { op: 'replace', path: 'favouriteColour', value: 'teal' },
          ),
        ),
      400,
      'invalidPath',
      /^"favouriteColour" is not an attribute of a User here$/,
    );
    expect(current).toEqual(ada);
    refusal(
      () => patchUser(ada, patch({ op: 'replace', value: { nickName: 'ok', shoeSize: 44 } })),
      400,
      'invalidPath',
      /"shoeSize" is not an attribute/,
    );
  });

  it('refuses to remove userName, the e-mail or active, and a bad value for them', () => {
    refusal(
      () => patchUser(ada, patch({ op: 'remove', path: 'userName' })),
      400,
      'mutability',
      /"userName" is required: it cannot be removed/,
    );
    refusal(
      () => patchUser(ada, patch({ op: 'remove', path: 'emails[type eq "work"].value' })),
      400,
      'mutability',
      /cannot be removed/,
    );
    refusal(() => patchUser(ada, patch({ op: 'remove', path: 'active' })), 400, 'mutability', /set it to false/);
    refusal(
      () => patchUser(ada, patch({ op: 'replace', path: 'userName', value: '' })),
      400,
      'invalidValue',
      /"userName" is required/,
    );
    refusal(
      () => patchUser(ada, patch({ op: 'replace', path: 'active', value: 'sometimes' })),
      400,
      'invalidValue',
      /"active" must be true or false/,
    );
    refusal(
      () => patchUser(ada, patch({ op: 'replace', path: 'emails[type eq "work"].value', value: 'nobody' })),
      400,
      'invalidValue',
      /"nobody" is not an e-mail address/,
    );
    refusal(
      () => patchUser(ada, patch({ op: 'replace', value: 'active' })),
      400,
      'invalidValue',
      /without a "path" needs an object/,
    );
  });
});

describe('readFilter', () => {
  const USER_ATTRIBUTES = ['username', 'externalid', 'id'];

  it('reads attribute eq "value", the attribute in any case', () => {
    expect(readFilter('userName eq "a@b"', USER_ATTRIBUTES)).toEqual({ attribute: 'username', value: 'a@b' });
    expect(readFilter('  USERNAME EQ "Ada@North.example"  ', USER_ATTRIBUTES)).toEqual({
      attribute: 'username',
      value: 'Ada@North.example',
    });
    expect(readFilter('externalId eq ""', USER_ATTRIBUTES)).toEqual({ attribute: 'externalid', value: '' });
  });

  it('reads escaped quotes and backslashes in the value', () => {
    expect(readFilter('userName eq "say \\"hi\\"@b.example"', USER_ATTRIBUTES).value).toBe('say "hi"@b.example');
    expect(readFilter('externalId eq "dom\\\\ada"', USER_ATTRIBUTES).value).toBe('dom\\ada');
  });

  it('refuses any other form with what it supports', () => {
    for (const filter of [
      'userName co "a"',
      'userName sw "a"',
      'userName eq "a" and active eq true',
      'userName eq a@b',
      'userName pr',
      '',
    ])
      refusal(
        () => readFilter(filter, USER_ATTRIBUTES),
        400,
        'invalidFilter',
        /^Only filters of the form attribute eq "value" are supported/,
      );
  });

  it('refuses an escape JSON does not know as a bad filter, not a failure', () => {
    for (const filter of ['userName eq "a\\qb"', 'userName eq "a\\u12"', 'userName eq "a\tb"'])
      refusal(
        () => readFilter(filter, USER_ATTRIBUTES),
        400,
        'invalidFilter',
        /is not a valid quoted string: escape a quote as \\" and a backslash as \\\\/,
      );
  });

  it('refuses an attribute it cannot filter by, naming those it can', () => {
    refusal(
      () => readFilter('emails eq "a@b"', USER_ATTRIBUTES),
      400,
      'invalidFilter',
      /^Filtering by emails is not supported; filter by username, externalid, id$/,
    );
    refusal(() => readFilter('userName eq "x"', ['displayname', 'id']), 400, 'invalidFilter', /Filtering by userName/);
  });
});

describe('errorBody', () => {
  it('is SCIM’s Error, with the status as a string and scimType only when there is one', () => {
    expect(errorBody(400, '"userName" is required', 'invalidValue')).toEqual({
      schemas: [ERROR],
      status: '400',
      scimType: 'invalidValue',
      detail: '"userName" is required',
    });
    const notFound = errorBody(404, 'No User "u1"');
    expect(notFound).toEqual({ schemas: [ERROR], status: '404', detail: 'No User "u1"' });
    expect(notFound).not.toHaveProperty('scimType');
    expect(SCHEMAS.error).toBe(ERROR);
  });

  it('carries what a ScimError holds', () => {
    const error = new ScimError(409, 'Another account already has this e-mail address', 'uniqueness');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ScimError');
    expect(errorBody(error.status, error.message, error.scimType)).toMatchObject({
      status: '409',
      scimType: 'uniqueness',
      detail: 'Another account already has this e-mail address',
    });
  });
});
