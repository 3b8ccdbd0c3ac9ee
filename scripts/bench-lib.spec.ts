import { inTurn } from '../bench/lib';

describe('bench lib: inTurn', () => {
  it('runs round 1 in the order given', () => {
    expect(inTurn(['base', 'main', 'off'], 1)).toEqual(['base', 'main', 'off']);
  });

  it('starts each round one variant further along, so each takes each place once in as many rounds', () => {
    const rounds = [1, 2, 3].map((round) => inTurn(['base', 'main', 'off'], round));
    expect(rounds).toEqual([
      ['base', 'main', 'off'],
      ['main', 'off', 'base'],
      ['off', 'base', 'main'],
    ]);
    for (const variant of ['base', 'main', 'off']) {
      expect(rounds.map((order) => order.indexOf(variant)).sort()).toEqual([0, 1, 2]);
    }
    expect(inTurn(['base', 'main', 'off'], 4)).toEqual(['base', 'main', 'off']);
  });
});
