# Generates rdkit_tricky.tsv and rdkit_tricky_rejected.tsv from tricky.txt with
# Debian python3-rdkit 2022.09.3:
#   /usr/bin/python3 mk_tricky.py tricky.txt rdkit_tricky.tsv rdkit_tricky_rejected.tsv
import sys
from rdkit import Chem, RDLogger
from rdkit.Chem import rdMolDescriptors as rd
RDLogger.DisableLog('rdApp.*')
ok = open(sys.argv[2], 'w'); bad = open(sys.argv[3], 'w')
ok.write("id\tsmiles\tmorgan_r3_1024\tmorgan_r2_2048\tmorgan_r3_unfolded\n"); bad.write("id\tsmiles\terror\n")
for line in open(sys.argv[1]):
    id, s = line.rstrip('\n').split('\t')
    m = Chem.MolFromSmiles(s)
    variants = [s]
    if m is not None:
        variants += [Chem.MolToSmiles(m), Chem.MolToSmiles(m, kekuleSmiles=True) if Chem.MolFromSmiles(Chem.MolToSmiles(m)) else Chem.MolToSmiles(m)]
    for k, v in enumerate(variants):
        mm = Chem.MolFromSmiles(v)
        if mm is None:
            bad.write("%s/%d\t%s\trejected\n" % (id, k, v)); continue
        if k == 2:
            try:
                Chem.Kekulize(mm, clearAromaticFlags=True); v = Chem.MolToSmiles(mm, kekuleSmiles=True); mm = Chem.MolFromSmiles(v)
            except Exception:
                continue
            if mm is None:
                bad.write("%s/%d\t%s\trejected\n" % (id, k, v)); continue
        a = rd.GetMorganFingerprintAsBitVect(mm, 3, nBits=1024); b = rd.GetMorganFingerprintAsBitVect(mm, 2, nBits=2048)
        u = rd.GetMorganFingerprint(mm, 3).GetNonzeroElements()
        ok.write("%s/%d\t%s\t%s\t%s\t%s\n" % (id, k, v, " ".join(map(str, a.GetOnBits())), " ".join(map(str, b.GetOnBits())), " ".join(f"{k}:{v}" for k, v in sorted(u.items()))))
