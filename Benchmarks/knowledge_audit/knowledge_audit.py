#!/usr/bin/env python3
"""The round-21 blind second review of models/allergens/dishes.tsv and known.tsv (see README.md here).

  python3 Benchmarks/knowledge_audit/knowledge_audit.py proposals [--tables DIR]
      Compares the blind annotation (dishes_blind_annotation.tsv) with dishes.tsv and prints, per row
      where the annotator named an allergen the row has neither as `contains` nor as `may_contain`,
      the adjudication input (`line term category lang table_contains table_may evidence proposed`).
      Run on today's tables it shows what the review would still propose.
  python3 Benchmarks/knowledge_audit/knowledge_audit.py apply [--tables DIR]
      Applies the adjudicated decisions (dishes_adjudication.tsv, known_adjudication.tsv) to the tables
      as they were before the review (commit 36d7722: the decisions are keyed by line number and term).

No evaluation data is read: the annotators and adjudicators saw only the terms (and, adjudicating, the
rows), never a menu of ../shared/eval or any classifier output.
"""
import argparse, collections, os, re, sys

HERE = os.path.dirname(os.path.abspath(__file__))
IDS = ("gluten crustaceans eggs fish peanuts soybeans milk tree_nuts celery mustard sesame sulphites "
       "lupin molluscs").split()
# Rejected on review of the adjudicated list: milk served on the side of plain coffee or tea; second senses
# whose first sense is a word of every description or drinks list ("is", "most", "bar", "soda",
# "toasted", "bean", "ice"); Italian "dal" (a grammar word); Italian "pesca" and French "pêche" (mostly
# peach); "chili", "chipotle", "aromatic", German "Muskat" (mostly a spice); French "chou"/"choux"
# (mostly cabbage); breakfast words (headings; their dishes have rows); buckwheat words (lexicon.tsv
# `safe` rows, which a dish row could not override).
SOY = re.compile("soy sauce|kecap|ketjap|ponzu|shoyu|teriyaki|hoisin|oyster sauce|unagi sauce", re.I)
NOT_WHEAT = re.compile("tamari|gluten.free", re.I)
OVERRIDE = {'coffee', 'tea', 'decaf', 'kaffee', 'filterkaffee', 'english breakfast tea', 'is', 'bean',
            'beans', 'soda', 'toasted', 'bar', 'most', 'dal', 'ice', 'pesca', 'pêche', 'chili', 'chipotle',
            'aromatic', 'muskat', 'chou', 'choux', 'breakfast', 'frühstück', 'petit déjeuner', 'desayuno',
            'desayunos', 'colazione', 'prima colazione', 'merienda', 'merenda', 'goûter', 'buckwheat',
            'buchweizen', 'sarrasin', 'grano saraceno', 'trigo sarraceno'}


def ids(s):
    s = s.strip()
    return [] if s in ('', '-', '?') else [x.strip() for x in s.split(',') if x.strip() in IDS]


def table_rows(lines):
    """dish rows by line number: (term, contains, may, category, lang, evidence)."""
    out = {}
    for i, l in enumerate(lines):
        if l.startswith('#') or not l.strip():
            continue
        c = l.split('\t')
        if len(c) >= 7:
            out[i + 1] = c
    return out


def proposals(lines):
    tab = table_rows(lines)
    prop = collections.defaultdict(list)
    for l in open(os.path.join(HERE, 'dishes_blind_annotation.tsv'), encoding='utf-8'):
        p = l.rstrip('\n').split('\t')
        if p[0] == 'line' or len(p) < 4:
            continue
        n = int(p[0])
        if n not in tab or tab[n][0] != p[1].strip():
            continue
        have = set(ids(tab[n][1])) | set(ids(tab[n][2]))
        c = [x for x in ids(p[2]) if x not in have]
        m = [x for x in ids(p[3]) if x not in have and x not in c]
        prop[n] += [f"C:{x}" for x in c] + [f"M:{x}" for x in m]
    return [[str(n), tab[n][0], tab[n][4], tab[n][5], tab[n][1], tab[n][2], tab[n][6], ','.join(prop[n])]
            for n in sorted(prop) if prop[n]]


def apply(d_path, k_path):
    dl = open(d_path, encoding='utf-8').read().split('\n')
    kl = open(k_path, encoding='utf-8').read().split('\n')
    stats = collections.Counter()
    prop = {int(p[0]): {x.split(':')[1] for x in p[7].split(',')} for p in proposals(dl)}
    for l in open(os.path.join(HERE, 'dishes_adjudication.tsv'), encoding='utf-8'):
        p = l.rstrip('\n').split('\t')
        if p[0] == 'line' or len(p) < 5:
            continue
        n = int(p[0]); cols = dl[n - 1].split('\t')
        if cols[0] != p[1].strip():
            stats['term mismatch'] += 1; continue
        if cols[0] in OVERRIDE:
            stats['dish rows overridden'] += 1; continue
        ac = [x for x in ids(p[2]) if x in prop.get(n, ())]
        am = [x for x in ids(p[3]) if x in prop.get(n, ()) and x not in ac]
        if not ac and not am:
            stats['dish rows rejected'] += 1; continue
        c = ids(cols[1]); m = ids(cols[2])
        c2 = c + [x for x in ac if x not in c]
        m2 = [x for x in m if x not in c2] + [x for x in am if x not in c2 and x not in m]
        stats['contains added'] += len(c2) - len(c)
        stats['may added'] += len(m2) - len([x for x in m if x not in c2])
        stats['dish rows changed'] += 1
        cols[1] = ','.join(c2) or '-'; cols[2] = ','.join(m2) or '-'
        if p[4].strip() not in ('', '-'):
            cols[6] = (cols[6] + '; ' + p[4].strip()) if cols[6] else p[4].strip()
        if {'fish', 'crustaceans', 'molluscs'} & set(c2):
            cols[3] = 'meat'
        dl[n - 1] = '\t'.join(cols)
    # known.tsv: an accepted flag moves the word to dishes.tsv (its role kept: ingredient stays a food,
    # every other class becomes a preparation word, understood but no food), or into its dish row.
    dterms = {}
    for i, l in enumerate(dl):
        if l and not l.startswith('#'):
            dterms.setdefault(l.split('\t')[0], i)
    new, drop = [], set()
    for l in open(os.path.join(HERE, 'known_adjudication.tsv'), encoding='utf-8'):
        p = l.rstrip('\n').split('\t')
        if p[0] == 'line' or len(p) < 5:
            continue
        i = int(p[0]) - 1; kc = kl[i].split('\t')
        if kc[0] != p[1].strip():
            stats['known term mismatch'] += 1; continue
        dec, al, reason = p[2].strip(), ids(p[3]), p[4].strip()
        if kc[0] in OVERRIDE:
            stats['known overridden'] += 1; continue
        if dec == 'reject' or not al:
            stats['known rejected'] += 1; continue
        stats['known ' + dec] += 1
        drop.add(i)
        term = kc[0]
        if term in dterms and dterms[term] >= 0:
            j = dterms[term]; cols = dl[j].split('\t')
            c = ids(cols[1]); m = ids(cols[2])
            if dec == 'contains':
                c += [x for x in al if x not in c]
            else:
                m += [x for x in al if x not in c and x not in m]
            cols[1] = ','.join(c) or '-'; cols[2] = ','.join(x for x in m if x not in c) or '-'
            cols[6] = (cols[6] + '; ' + reason) if cols[6] else reason
            dl[j] = '\t'.join(cols); stats['known merged into their dish row'] += 1
            continue
        cat = 'ingredient' if kc[1] == 'ingredient' else 'preparation'
        c = al if dec == 'contains' else []
        m = [] if dec == 'contains' else al
        diet = 'meat' if (len(kc) > 2 and kc[2] == 'meat') or {'fish', 'crustaceans', 'molluscs'} & set(c) else '-'
        lang = kc[3] if len(kc) > 3 and kc[3] else 'en'
        new.append('\t'.join([term, ','.join(c) or '-', ','.join(m) or '-', diet, cat, lang, f"{term}: {reason}"]))
        dterms[term] = -1
    kl = [l for i, l in enumerate(kl) if i not in drop]
    while dl and dl[-1] == '':
        dl.pop()
    dl.append('# ===== 34. ROUND 21: known.tsv words a blind second review found to hold an allergen '
              '(moved here from known.tsv) =====')
    dl += new
    dl.append('insalata mista\t-\t-\t-\tdish\tit\tinsalata mista: mixed green salad (not a mixed seafood dish)')
    # The tables' convention (dishes.tsv header): soy sauce is brewed with wheat, so a row whose
    # evidence now names soy, oyster or hoisin sauce may hold gluten too.
    for i, l in enumerate(dl):
        c = l.split('\t')
        if l.startswith('#') or len(c) < 7 or not SOY.search(c[6]) or NOT_WHEAT.search(c[6]):
            continue
        if 'gluten' not in ids(c[1]) + ids(c[2]):
            c[2] = ','.join(ids(c[2]) + ['gluten']); dl[i] = '\t'.join(c); stats['gluten by the soy-sauce convention'] += 1
    open(d_path, 'w', encoding='utf-8').write('\n'.join(dl) + '\n')
    open(k_path, 'w', encoding='utf-8').write('\n'.join(kl))
    print(dict(stats), 'new dish rows', len(new), 'known rows moved', len(drop), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('command', choices=['proposals', 'apply'])
    ap.add_argument('--tables', default=os.path.join(HERE, '..', '..', 'models', 'allergens'))
    a = ap.parse_args()
    d, k = os.path.join(a.tables, 'dishes.tsv'), os.path.join(a.tables, 'known.tsv')
    if a.command == 'proposals':
        print('line\tterm\tcategory\tlang\ttable_contains\ttable_may\tevidence\tproposed')
        for p in proposals(open(d, encoding='utf-8').read().split('\n')):
            print('\t'.join(p))
    else:
        apply(d, k)


if __name__ == '__main__':
    main()
