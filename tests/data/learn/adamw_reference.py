#!/usr/bin/python3
# Expected numbers of tst_training's AdamW case: torch.optim.AdamW (decoupled
# weight decay, bias correction) on a 4-entry tensor for three steps with fixed
# gradients, in float32 as the C++ runs it. Prints the C++ literals.
import torch

p = torch.tensor([0.5, -1.0, 2.0, 0.0], dtype=torch.float32, requires_grad=True)
grads = [torch.tensor([0.1, -0.2, 0.3, 1e-3]), torch.tensor([-0.3, 0.1, 0.2, 0.0]),
         torch.tensor([0.05, 0.05, -0.5, 2.0])]
opt = torch.optim.AdamW([p], lr=0.01, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.1)
for step, g in enumerate(grads, 1):
    p.grad = g.clone()
    opt.step()
    print(f"step {step}: {{" + ", ".join(f"{v:.9g}f" for v in p.detach().tolist()) + "}")
