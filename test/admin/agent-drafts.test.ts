import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type CreateDraft,
  createBody,
  createProblems,
  editDraftOf,
  emptyCreate,
  updateBody,
} from '../../src/admin/agent-drafts.js';
import type { Agent } from '../../src/api/types.js';
import { localize } from '../../src/ui/i18n.js';
import { adminStrings } from '../../src/ui/strings/admin.js';
import { adminDe } from '../../src/ui/strings/admin-de.js';

const s = adminStrings.en;
const draft = (patch: Partial<CreateDraft>): CreateDraft => ({ ...emptyCreate(), ...patch });

const agent = (patch: Partial<Agent>): Agent =>
  ({
    uuid: 'a1',
    name: 'Helper',
    type: 'user-facing',
    enabled: true,
    description: '',
    prompt: '',
    meta: {},
    ...patch,
  }) as Agent;

describe('createBody', () => {
  it('refuses a draft without a name', () => {
    assert.deepEqual(createBody(draft({ name: '  ' }), s), { invalid: { name: s.nameRequired } });
  });

  it("sends only the settings the agent's type takes", () => {
    const typed = {
      name: ' Bot ',
      model: ' m1 ',
      temperature: '0.5',
      bias: '0.2',
      stickness: '',
      default_message: 'Hello',
    };
    assert.deepEqual(createBody(draft({ ...typed, type: 'user-facing' }), s), {
      body: {
        name: 'Bot',
        type: 'user-facing',
        description: '',
        prompt: '',
        model: 'm1',
        temperature: 0.5,
        bias: 0.2,
        use_all_sources: false,
      },
    });
    assert.deepEqual(createBody(draft({ ...typed, type: 'pre-canned' }), s), {
      body: {
        name: 'Bot',
        type: 'pre-canned',
        description: '',
        prompt: '',
        bias: 0.2,
        default_message: 'Hello',
      },
    });
  });

  it('names the number field that is out of range', () => {
    const result = createBody(draft({ name: 'Bot', stickness: '3' }), s);
    assert.deepEqual(result, {
      invalid: { stickness: s.rangeInvalid.replace('{field}', s.stickness) },
    });
  });

  it('names every field to correct at once, in the order of the form', () => {
    const result = createBody(
      draft({ name: '', temperature: '1.5', bias: '-0.2', stickness: '-0.2' }),
      s,
    );
    assert.ok('invalid' in result);
    assert.deepEqual(Object.keys(result.invalid), ['name', 'temperature', 'bias', 'stickness']);
    assert.equal(result.invalid.bias, s.rangeInvalid.replace('{field}', s.bias));
  });

  it("keeps a background agent's named tags, and refuses a colour that is not #RRGGBB", () => {
    const tags = [
      { name: 'Sales', color: '#112233', criteria: 'buying' },
      { name: '', color: 'not checked', criteria: '' },
    ];
    const ok = createBody(draft({ name: 'Bot', type: 'background', tags }), s);
    assert.ok('body' in ok);
    assert.deepEqual(ok.body.tags, [tags[0]]);
    const bad = createBody(
      draft({ name: 'Bot', type: 'background', tags: [{ ...tags[0]!, color: 'red' }] }),
      s,
    );
    assert.deepEqual(bad, { invalid: { 'tag-color-0': s.colorInvalid } });
  });
});

describe('createProblems', () => {
  it('names a name, description, prompt, model and tag too long for the server, the name trimmed', () => {
    const problems = createProblems(
      draft({
        name: ` ${'n'.repeat(200)} `,
        type: 'background',
        description: 'd'.repeat(10_001),
        prompt: 'p'.repeat(100_000),
        model: 'm'.repeat(201),
        tags: [
          { name: 't'.repeat(201), color: '#000000', criteria: 'c'.repeat(2001) },
          { name: '', color: 'bad', criteria: 'c'.repeat(2001) },
        ],
      }),
      s,
    );
    assert.deepEqual(problems, {
      description: 'At most 10,000 characters; this has 10,001.',
      model: 'At most 200 characters; this has 201.',
      'tag-name-0': 'At most 200 characters; this has 201.',
      'tag-criteria-0': 'At most 2,000 characters; this has 2,001.',
    });
  });
});

describe('updateBody', () => {
  it('leaves out variables the list did not give and the user did not touch', () => {
    const listed = agent({ variables: undefined });
    const result = updateBody(listed, editDraftOf(listed), s);
    assert.ok('body' in result);
    assert.equal('variables' in result.body, false);
  });

  it('sends named variables once they are known or touched', () => {
    const known = agent({
      variables: [
        {
          name: 'city',
          description: '',
          example: '',
          type: 'string',
          default_value: { content: '', static: 0 },
        },
      ],
    });
    const d = editDraftOf(known);
    d.variables.push({ ...d.variables[0]!, name: ' ' });
    const result = updateBody(known, d, s);
    assert.ok('body' in result);
    assert.deepEqual(
      result.body.variables?.map((v) => v.name),
      ['city'],
    );
  });

  it('refuses a temperature out of range, and sends none when it is left empty', () => {
    const a = agent({});
    assert.deepEqual(updateBody(a, { ...editDraftOf(a), temperature: '1.5' }, s), {
      invalid: { temperature: s.rangeInvalid.replace('{field}', s.temperature) },
    });
    const empty = updateBody(a, { ...editDraftOf(a), temperature: '' }, s);
    assert.ok('body' in empty);
    assert.equal('temperature' in empty.body, false);
  });

  it('refuses every text longer than the server takes, each by its field, named rows only', () => {
    const human = agent({ type: 'human-escalation' });
    const d = editDraftOf(human);
    const variable = {
      name: 'v'.repeat(201),
      description: '',
      example: 'e'.repeat(2001),
      type: 't'.repeat(51),
      default_value: { content: '', static: 0 as const },
    };
    d.variables = [variable, { ...variable, name: ' ' }];
    d.escalation!.live_chat_end_announcement = 'x'.repeat(10_001);
    const result = updateBody(human, d, localize({ ...adminStrings, de: adminDe }, 'de'), 'de');
    assert.ok('invalid' in result);
    assert.deepEqual(Object.keys(result.invalid).sort(), [
      'live_chat_end_announcement',
      'variable-example-0',
      'variable-name-0',
      'variable-type-0',
    ]);
    assert.equal(
      result.invalid['variable-example-0'],
      'Höchstens 2.000 Zeichen; hier sind es 2.001.',
    );
  });

  it('sends the escalation settings of a human-escalation agent only', () => {
    const human = agent({ type: 'human-escalation' });
    const result = updateBody(human, editDraftOf(human), s);
    assert.ok('body' in result);
    assert.equal(result.body.human_escalation_settings?.sound_enabled, 0);
    const other = updateBody(agent({}), editDraftOf(agent({})), s);
    assert.ok('body' in other);
    assert.equal('human_escalation_settings' in other.body, false);
  });
});
