import { describe, expect, it } from 'vitest';
import { plainText } from './plain-text';

describe('plainText', () => {
  it('keeps the text of simple markup and decodes entities', () => {
    expect(plainText('UnitedHealthcare Choice Plus<sup>&reg;</sup> Silver PPO')).toBe('UnitedHealthcare Choice Plus® Silver PPO');
    expect(plainText('Blue Care Network <b>HMO</b>&nbsp;Gold')).toBe('Blue Care Network HMO Gold');
  });

  it('drops scripts and styles, turns line breaks into spaces and collapses white space', () => {
    expect(plainText('Plan<script>alert(1)</script><style>b{}</style> A<br>B\n\n C')).toBe('Plan A B C');
  });

  it('answers plain text as it is, trimmed', () => {
    expect(plainText('  Priority  Health ')).toBe('Priority Health');
    expect(plainText('')).toBe('');
  });
});
