"""The exact Markov-chain battle solver: single battles, chains, whole regions and odds tables."""
