import { describe, expect, it } from 'vitest';
import { resolveModal } from './modals';

// From forms/census.form.yaml.
const medicare = {
  title: 'Medicare Eligible?',
  body: 'Are you, or is anyone on this application, eligible for Medicare?',
  buttons: [
    { label: 'No', action: 'submit', set: { medicare_eligible: 0 } },
    { label: 'Continue with Dental/Vision Only', action: 'submit', set: { medicare_eligible: 1 }, requires: 'dental_vision_only_available' },
  ],
};

describe('resolveModal', () => {
  it('draws the buttons and their answers', () => {
    const m = resolveModal(medicare, { dental_vision_only_available: true }, {});
    expect(m?.title).toBe('Medicare Eligible?');
    expect(m?.paragraphs).toEqual(['Are you, or is anyone on this application, eligible for Medicare?']);
    expect(m?.buttons.map((b) => [b.label, b.action, b.set, b.disabled])).toEqual([
      ['No', 'submit', { medicare_eligible: 0 }, false],
      ['Continue with Dental/Vision Only', 'submit', { medicare_eligible: 1 }, false],
    ]);
  });

  it('disables a button whose requirement is not met, with the extras message', () => {
    const message = "We're sorry – this agent does not support Dental/Vision Only coverage at this time.";
    const m = resolveModal(medicare, { dental_vision_only_available: false, dental_vision_only_unavailable_message: message }, {});
    expect(m?.buttons[1]).toMatchObject({ disabled: true, disabledMessage: message });
  });

  it('shows an extra as body text (body_extra) and fills placeholders', () => {
    const m = resolveModal({ title: 'Premium Subsidies', body_extra: 'subsidy_statement' }, { subsidy_statement: 'Not subsidy-eligible.' }, {});
    expect(m?.paragraphs).toEqual(['Not subsidy-eligible.']);
    expect(m?.buttons.map((b) => b.label)).toEqual(['Close']);
    // From forms/census.form.yaml: `{zip}` is the value the county widget opens it with.
    const residency = {
      title: 'Residency Notice',
      body: '{zip} is not a valid Michigan ZIP code. You must be a Michigan resident to apply for coverage. {agent_contact}',
    };
    const r = resolveModal(residency, { agent_contact: 'Please contact your agent, Alex Acme.' }, { zip: '49858' });
    expect(r?.paragraphs[0]).toBe(
      '49858 is not a valid Michigan ZIP code. You must be a Michigan resident to apply for coverage. Please contact your agent, Alex Acme.',
    );
    const list = resolveModal({ title: 'Terms', body_extra: 'terms.text' }, { terms: { text: ['One.', 'Two.'] } }, {});
    expect(list?.paragraphs).toEqual(['One.', 'Two.']);
  });

  it('opens links from extras and lists answers to clear', () => {
    const m = resolveModal(
      { title: 'Shop', clear: ['residential_zip'], buttons: [{ label: 'Go', action: 'link', href_extra: 'marketplace.public_url' }] },
      { marketplace: { public_url: 'https://www.healthcare.gov/' } },
      {},
    );
    expect(m?.buttons[0]).toMatchObject({ action: 'link', href: 'https://www.healthcare.gov/' });
    expect(m?.clear).toEqual(['residential_zip']);
    expect(resolveModal(null, {}, {})).toBeNull();
  });

  it('leaves out a link without an address, and sends Return Home to the site root', () => {
    const marketplace = {
      title: 'Shop the Health Insurance Marketplace',
      buttons: [
        { label: 'Shop the Marketplace', action: 'link', href_extra: 'marketplace.public_url' },
        { label: 'Go to Priority Health', action: 'link', href_extra: 'marketplace.priority_url' },
        { label: 'Continue with Dental/Vision Only', action: 'submit', set: { marketplace_continue: true } },
      ],
    };
    const consumer = resolveModal(marketplace, { marketplace: { public_url: 'https://www.healthcare.gov/' } }, {});
    expect(consumer?.buttons.map((b) => b.label)).toEqual(['Shop the Marketplace', 'Continue with Dental/Vision Only']);
    const thanks = resolveModal({ title: 'Thank you!', buttons: [{ label: 'Return Home', action: 'home' }] }, {}, {});
    expect(thanks?.buttons[0]).toMatchObject({ action: 'home', href: '/' });
    const elsewhere = resolveModal({ title: 'x', buttons: [{ label: 'Go', action: 'home', href: '//evil.example' }] }, {}, {});
    expect(elsewhere?.buttons[0]?.href).toBe('/');
  });

  // Spec part 1, 4.3 step 7: "'Continue with Dental/Vision Only' (or 'Continue with Vision Only' for
  // vision) proceeds": the label is the rules' (extras.marketplace_continue_label).
  it("fills a button's label from the extras", () => {
    const marketplace = {
      title: 'Shop the Health Insurance Marketplace',
      buttons: [{ label: '{marketplace_continue_label}', action: 'submit', set: { marketplace_continue: true } }],
    };
    const vision = resolveModal(marketplace, { marketplace_continue_label: 'Continue with Vision Only' }, {});
    expect(vision?.buttons[0]?.label).toBe('Continue with Vision Only');
  });
});
